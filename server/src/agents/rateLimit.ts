// A token bucket per agent: a runaway agent is slowed down (429 + Retry-After) without touching others.
// In memory on purpose: losing it on restart only forgives a burst.
export interface RateLimitOptions {
  /** Pushes per second refilled. */
  perSecond: number;
  /** Pushes allowed at once. */
  burst: number;
}

export const DEFAULT_PUSH_RATE: RateLimitOptions = { perSecond: 20, burst: 40 };

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly options: RateLimitOptions = DEFAULT_PUSH_RATE,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when the call may go ahead (a token is taken), else the seconds to wait. */
  take(key: string): number {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.options.burst, at: now };
    b.tokens = Math.min(this.options.burst, b.tokens + ((now - b.at) / 1000) * this.options.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.options.perSecond));
  }
}
