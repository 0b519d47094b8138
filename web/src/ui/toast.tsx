// Toasts (sonner): 5 seconds (spec/1 §9), and the helper that turns any error into one.
import { toast, Toaster as SonnerToaster } from 'sonner';

export const TOAST_DURATION_MS = 5_000;

export { toast };

export function Toaster({ theme }: { theme: 'light' | 'dark' }) {
  return (
    <SonnerToaster
      theme={theme}
      position="top-right"
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      toastOptions={{ className: 'font-sans' }}
    />
  );
}

const GENERIC = 'An error occurred';

/** Toasts an error: the server's message, the error's message, else 'An error occurred'. */
export function toastError(error: unknown): void {
  const message = error instanceof Error && error.message ? error.message : typeof error === 'string' ? error : GENERIC;
  toast.error(message);
}
