// The return_to query parameter of /login: honoured only for a path on this origin, so a
// crafted link cannot send a freshly signed-in user to another site.

export const RETURN_TO_FORBIDDEN = 'The return_to address is not allowed.';

export type ReturnTo = { ok: true; path: string } | { ok: false; error: string };

/**
 * '/health?x=1' → that path; 'https://this-origin/health' → '/health'; other origins,
 * protocol-relative ('//evil'), backslash tricks and javascript: → the error. Empty → '/'.
 */
export function safeReturnTo(raw: string | null | undefined, origin: string): ReturnTo {
  if (raw === null || raw === undefined || raw.trim() === '') return { ok: true, path: '/' };
  const value = raw.trim();
  // Browsers treat '\' like '/', so '/\evil.com' is protocol-relative too; control characters are never legitimate.
  const hasControl = [...value].some((ch) => ch.charCodeAt(0) < 0x20);
  if (hasControl || value.includes('\\') || value.startsWith('//')) return { ok: false, error: RETURN_TO_FORBIDDEN };
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return { ok: false, error: RETURN_TO_FORBIDDEN };
  }
  if (url.origin !== origin || (!value.startsWith('/') && !/^https?:\/\//i.test(value)))
    return { ok: false, error: RETURN_TO_FORBIDDEN };
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Going back to the sign-in page after signing in would loop.
  if (url.pathname === '/login') return { ok: true, path: '/' };
  return { ok: true, path };
}
