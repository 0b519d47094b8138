// Lookups of people and teams by what users write: a person by id, email (case-insensitive) or name,
// a team by id or name. Shared by the engines that resolve recipients and approvers (notifications,
// playbooks); each answers a live row's id or undefined.
import type { Queryable } from './database.js';

/** A live person by id, email or name; an id match wins, then an email match. */
export async function findPerson(db: Queryable, ref: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM people WHERE deleted_at IS NULL AND (id::text = $1 OR lower(email) = lower($1) OR name = $1)
     ORDER BY (id::text = $1) DESC, (lower(email) = lower($1)) DESC LIMIT 1`,
    [ref.trim()],
  );
  return rows[0]?.id;
}

/** A live team by id or name; an id match wins. */
export async function findTeam(db: Queryable, ref: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM teams WHERE deleted_at IS NULL AND (id::text = $1 OR name = $1) ORDER BY (id::text = $1) DESC LIMIT 1',
    [ref.trim()],
  );
  return rows[0]?.id;
}
