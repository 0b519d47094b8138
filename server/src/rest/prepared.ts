// Names for /api/db read statements, so PostgreSQL parses and plans each query shape once per
// connection instead of on every request (as PostgREST's prepared statements do). The SQL text holds
// only the plan's shape (identifiers, operators); values are parameters, so one name serves every
// request of that shape. A read's result is always (total bigint, page_total bigint, body text), so a
// schema change never changes a prepared statement's result type (PostgreSQL re-plans it by itself).
//
// Bounded: the first MAX_PREPARED distinct shapes get a name (per process, and so at most that many
// prepared statements per pooled connection); later shapes run unnamed, parsed on every request.

export const MAX_PREPARED = 500;

export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly prefix = 'opsdeck_rest_',
    private readonly max = MAX_PREPARED,
  ) {}

  /** The statement's name, or undefined once the bound is reached (run it unnamed). */
  nameFor(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `${this.prefix}${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}
