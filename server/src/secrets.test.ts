import { describe, expect, it } from 'vitest';
import { isSealed, openSecret, sealBody, SecretBox } from './secrets.js';

describe('secrets at rest', () => {
  const box = new SecretBox('test key one');

  it('seals to an opaque value that opens to the original', () => {
    const sealed = box.seal('s3cr3t password');
    expect(sealed).not.toContain('s3cr3t');
    expect(isSealed(sealed)).toBe(true);
    expect(openSecret(sealed)).toBe('s3cr3t password');
    // A fresh IV each time: the same secret never looks the same twice.
    expect(box.seal('s3cr3t password')).not.toBe(sealed);
  });

  it('leaves sealed and legacy plain values alone', () => {
    const sealed = box.seal('x');
    expect(box.seal(sealed)).toBe(sealed);
    expect(openSecret('plain from before')).toBe('plain from before');
    expect(openSecret(null)).toBeNull();
  });

  it('opens values of every key this process knows, and refuses tampering', () => {
    const other = new SecretBox('test key two');
    const a = box.seal('alpha');
    const b = other.seal('beta');
    expect(openSecret(a)).toBe('alpha');
    expect(openSecret(b)).toBe('beta');
    // One character of the sealed bytes changed (to another one: the IV is random, so any may be there).
    const tampered = a.slice(0, -2) + (a.at(-2) === 'A' ? 'B' : 'A') + a.slice(-1);
    expect(tampered).not.toBe(a);
    expect(() => openSecret(tampered)).toThrow();
  });

  it('says which key is missing instead of returning garbage', () => {
    expect(() => openSecret('enc:v1:000000000000:AAAA')).toThrow(/OPSDECK_ENCRYPTION_KEY/);
  });

  it('seals the secret columns of object and array bodies only', () => {
    const one = JSON.parse(sealBody('{"name":"db","password":"pw","url":"x"}', ['password', 'certificate'], box));
    expect(one.name).toBe('db');
    expect(one.url).toBe('x');
    expect(openSecret(one.password)).toBe('pw');
    const many = JSON.parse(
      sealBody('[{"password":"a"},{"certificate":"c","password":""}]', ['password', 'certificate'], box),
    );
    expect(openSecret(many[0].password)).toBe('a');
    expect(openSecret(many[1].certificate)).toBe('c');
    expect(many[1].password).toBe('');
    expect(sealBody('not json', ['password'], box)).toBe('not json');
  });

  it('stores secret and config map references as written', () => {
    const body = '{"password":"secret://db-creds/password","certificate":"configmap://ca/ca.crt"}';
    expect(sealBody(body, ['password', 'certificate'], box)).toBe(body);
    const almost = JSON.parse(sealBody('{"password":"secret://no-key"}', ['password'], box));
    expect(isSealed(almost.password)).toBe(true);
  });
});
