// A secret field's value (spec/3 §2 Connections): static text, or the address `name/key` of a Secret
// or ConfigMap, stored as `secret://name/key` / `configmap://name/key` (common's SECRET_REF).

export type SecretMode = 'static' | 'secret' | 'configmap';

export const SECRET_MODES: readonly { mode: SecretMode; label: string }[] = [
  { mode: 'static', label: 'Static text' },
  { mode: 'secret', label: 'Secret reference' },
  { mode: 'configmap', label: 'ConfigMap reference' },
];

/** The stored value for what the field holds; '' when nothing was typed. */
export function encodeSecret(mode: SecretMode, text: string): string {
  if (mode === 'static') return text;
  const address = text.trim();
  return address ? `${mode}://${address}` : '';
}

/** A stored reference (`password_ref`) as a mode and the address the field shows. */
export function decodeSecretRef(ref: string | null | undefined): { mode: SecretMode; address: string } | undefined {
  const m = ref ? /^(secret|configmap):\/\/(.*)$/.exec(ref) : null;
  return m ? { mode: m[1] as SecretMode, address: m[2] } : undefined;
}

/** What an edited connection already holds in a secret column (the value itself is never read). */
export interface StoredSecret {
  set: boolean;
  /** The reference, when the stored value is one. */
  ref?: string;
}
