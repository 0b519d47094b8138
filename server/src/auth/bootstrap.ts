// The first administrator: created on first start when no active admin exists, from ADMIN_EMAIL /
// ADMIN_PASSWORD, or with a generated password printed once.
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { BetterAuth } from './betterAuth.js';

export interface BootstrapResult {
  created: boolean;
  email?: string;
  /** Set only when the password was generated here (to print once). */
  generatedPassword?: string;
}

const ACTIVE_ADMIN = `SELECT 1 FROM person_roles r JOIN people p ON p.id = r.person_id
  WHERE r.role = 'admin' AND p.deleted_at IS NULL AND p.state = 'active' LIMIT 1`;

export async function bootstrapAdmin(
  config: Config,
  db: Database,
  auth: () => Promise<BetterAuth>,
): Promise<BootstrapResult> {
  // The usual case, checked cheaply: an admin exists, nothing to hash or lock.
  if ((await db.query(ACTIVE_ADMIN)).rows.length > 0) return { created: false };
  const email = (config.adminEmail ?? 'admin@opsdeck.local').toLowerCase();
  const generatedPassword = config.adminPassword ? undefined : crypto.randomBytes(12).toString('base64url');
  const password = config.adminPassword ?? generatedPassword!;
  if (password.length < 8) throw new Error('ADMIN_PASSWORD must be at least 8 characters long');
  const hash = await (await (await auth()).$context).password.hash(password);
  return db.transaction(async (tx) => {
    // One replica creates the admin; the others wait here and then find it.
    await tx.query('SELECT pg_advisory_xact_lock(7253002)');
    if ((await tx.query(ACTIVE_ADMIN)).rows.length > 0) return { created: false };
    const existing = await tx.query<{ id: string }>(
      'SELECT id FROM people WHERE lower(email) = $1 AND deleted_at IS NULL',
      [email],
    );
    let personId = existing.rows[0]?.id;
    if (!personId) {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO people (name, email, email_verified) VALUES ('Administrator', $1, true) RETURNING id`,
        [email],
      );
      personId = rows[0]!.id;
    }
    await tx.query(`UPDATE people SET state = 'active' WHERE id = $1`, [personId]);
    await tx.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin') ON CONFLICT DO NOTHING`, [
      personId,
    ]);
    await tx.query(`DELETE FROM auth_accounts WHERE person_id = $1 AND provider_id = 'credential'`, [personId]);
    await tx.query(
      `INSERT INTO auth_accounts (id, account_id, provider_id, person_id, password) VALUES ($1, $2::text, 'credential', $2::uuid, $3)`,
      [crypto.randomUUID(), personId, hash],
    );
    return { created: true, email, generatedPassword };
  });
}
