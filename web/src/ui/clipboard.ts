// Copy to clipboard with the messages of spec/1 §8.
import { toast } from 'sonner';

export const CLIPBOARD_UNAVAILABLE = 'Clipboard not available';
export const CLIPBOARD_FAILED = 'Failed to copy to clipboard';
export const CLIPBOARD_COPIED = 'Copied to clipboard';

/** Copies text and toasts the outcome; `successMessage` replaces 'Copied to clipboard'. */
export async function copyToClipboard(text: string, successMessage: string = CLIPBOARD_COPIED): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) {
    toast.error(CLIPBOARD_UNAVAILABLE);
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
    toast.success(successMessage);
    return true;
  } catch {
    toast.error(CLIPBOARD_FAILED);
    return false;
  }
}
