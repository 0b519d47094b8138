// The frame of the identity pages (sign-in, registration, recovery, verification) and of the
// error pages that work without a session: a centred column under the product name.
import { Outlet } from 'react-router';

export default function PublicLayout() {
  return (
    <div className="relative flex min-h-full flex-col items-center bg-background px-4 py-12">
      <div
        className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-gradient-to-b from-primary/10 to-transparent"
        aria-hidden
      />
      <div className="relative mb-8 flex items-center gap-2.5">
        <svg viewBox="0 0 32 32" className="size-9" aria-hidden>
          <rect width="32" height="32" rx="8" fill="var(--primary)" />
          <path
            d="M9 11.5 16 8l7 3.5v9L16 24l-7-3.5z"
            fill="none"
            stroke="#fff"
            strokeWidth="2.2"
            strokeLinejoin="round"
          />
          <path d="M9 11.5 16 15l7-3.5M16 15v9" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinejoin="round" />
        </svg>
        <span className="text-xl font-semibold tracking-tight text-foreground">Opsdeck</span>
      </div>
      <main className="relative w-full max-w-[420px]">
        <Outlet />
      </main>
    </div>
  );
}
