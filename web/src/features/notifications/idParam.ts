// The `id` search parameter that opens a rule, silence or sent notification in its dialog, so a
// reload or a shared link shows the same one.

/** `params` with `id` set, or removed when undefined. */
export function withOpenId(params: URLSearchParams, id: string | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  if (id) next.set('id', id);
  else next.delete('id');
  return next;
}
