// Test principals: a person with a role and an access token, created directly in the database.
import type { Role } from '@opsdeck/common';
import type { Queryable } from '../../src/db/database.js';
import { createToken } from '../../src/auth/tokens.js';

export interface TestUser {
  id: string;
  token: string;
  headers: { authorization: string };
}

let counter = 0;

export async function createTestUser(
  db: Queryable,
  role: Role | null,
  name = `Test ${role ?? 'norole'} ${++counter}`,
): Promise<TestUser> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${Date.now().toString(36)}${counter}@example.test`;
  const { rows } = await db.query<{ id: string }>('INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id', [
    name,
    email,
  ]);
  const id = rows[0]!.id;
  if (role) await db.query('INSERT INTO person_roles (person_id, role) VALUES ($1, $2)', [id, role]);
  const { token } = await createToken(db, { name: 'test', personId: id, createdBy: null });
  return { id, token, headers: { authorization: `Bearer ${token}` } };
}
