// What a session or access token resolved to (person, roles), kept by one replica so a request
// needs no look-up of its own. Correct only together with the opsdeck_auth notifications (0034) and
// the listener's barrier (db/listener.ts), see identity.ts:
// - an entry is used only after a barrier, so every change committed before the request began has
//   dropped it by then;
// - an entry is stored only if no notification arrived while it was being looked up (generation);
// - without a listening connection nothing is stored, and losing it forgets everything.
// Entries also end at their session's or token's expiry, at ttlMs, and all at once beyond MAX_ENTRIES.
import type { Principal } from './identity.js';

const MAX_ENTRIES = 10_000;

export interface CachedCaller {
  principal: Principal;
  /** ms since epoch: the earlier of ttl and the session's or token's own expiry. */
  until: number;
  /** Access tokens: the row's id and when its use was last recorded (ms since epoch, 0 = never). */
  tokenId?: string;
  lastUsed?: number;
}

export class PrincipalCache {
  private readonly entries = new Map<string, CachedCaller>();
  private readonly keysByPerson = new Map<string, Set<string>>();
  /** Bumped by every notification and every forgetting: a look-up spanning one is not stored. */
  generation = 0;

  constructor(readonly ttlMs: number) {}

  get(key: string, now = Date.now()): CachedCaller | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.delete(key, entry.principal.id);
      return undefined;
    }
    return entry;
  }

  /** Stores the look-up's result unless a notification arrived since `generation` was read. */
  set(key: string, entry: CachedCaller, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.generation || entry.until <= Date.now()) return;
    if (this.entries.size >= MAX_ENTRIES) this.clear();
    this.entries.set(key, entry);
    let keys = this.keysByPerson.get(entry.principal.id);
    if (!keys) this.keysByPerson.set(entry.principal.id, (keys = new Set()));
    keys.add(key);
  }

  /** A change to this person (roles, state, a session or token of theirs) was committed. */
  forgetPerson(personId: string): void {
    this.generation++;
    for (const key of this.keysByPerson.get(personId) ?? []) this.entries.delete(key);
    this.keysByPerson.delete(personId);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.keysByPerson.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string, personId: string) {
    this.entries.delete(key);
    this.keysByPerson.get(personId)?.delete(key);
  }
}
