// better-auth, configured for Opsdeck: people are its users; sessions, accounts, verification
// tokens, TOTP secrets and rate limits live in the auth_* tables of migration 0002.
// better-auth is loaded on first use (a sign-in flow), not at start: requests are authenticated
// without it (identity.ts), and starting faster matters more than the first sign-in's milliseconds.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Mailer } from './mailer.js';

/** The header the HTTP layer fills with the socket's address, so rate limits key on the real client. */
export const CLIENT_IP_HEADER = 'x-opsdeck-client-ip';

export interface AuthDeps {
  config: Config;
  db: Database;
  secret: string;
  mailer: Mailer;
}

export async function createBetterAuth({ config, db, secret, mailer }: AuthDeps) {
  const { betterAuth, APIError } = await import('better-auth');
  const { genericOAuth, twoFactor } = await import('better-auth/plugins');
  const oidc = config.oidc;
  return betterAuth({
    appName: 'Opsdeck',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    database: db.pgPool(),
    // The console's own origin is always trusted; so is the origin the request was addressed to.
    trustedOrigins: (request?: Request) => {
      const origins = [new URL(config.publicUrl).origin];
      const host = request?.headers.get('host');
      if (host) origins.push(`${new URL(config.publicUrl).protocol}//${host}`);
      return origins;
    },
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: 'opsdeck',
      useSecureCookies: config.publicUrl.startsWith('https:'),
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    user: {
      modelName: 'people',
      fields: { emailVerified: 'email_verified', image: 'avatar', createdAt: 'created_at', updatedAt: 'updated_at' },
      changeEmail: {
        enabled: true,
        // A verified address needs the owner to confirm the change from the current address.
        sendChangeEmailConfirmation: async ({ user, newEmail, url }) => {
          await mailer.send({
            to: user.email,
            subject: 'Confirm your new Opsdeck email address',
            text: `Someone asked to change the email of your Opsdeck account to ${newEmail}.\n\nConfirm: ${url}\n\nIf this was not you, ignore this message.`,
          });
        },
      },
    },
    session: {
      modelName: 'auth_sessions',
      fields: {
        userId: 'person_id',
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    account: {
      modelName: 'auth_accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'person_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
      accountLinking: { enabled: false },
    },
    verification: {
      modelName: 'auth_verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'auth_rate_limits',
      fields: { lastRequest: 'last_request' },
      window: 60,
      max: 200,
      customRules: {
        '/sign-in/email': { window: 60, max: config.signInRateLimit },
        '/two-factor/verify-totp': { window: 60, max: config.signInRateLimit },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 10 },
      },
    },
    emailAndPassword: {
      enabled: true,
      disableSignUp: config.registration !== 'open',
      minPasswordLength: 8,
      maxPasswordLength: 256,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: 'Reset your Opsdeck password',
          text: `Use this link within one hour to choose a new password:\n\n${url}\n\nIf you did not ask for it, ignore this message.`,
        });
      },
    },
    emailVerification: {
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: 'Verify your Opsdeck email address',
          text: `Confirm your address:\n\n${url}`,
        });
      },
      expiresIn: 60 * 60 * 24,
    },
    databaseHooks: {
      session: {
        create: {
          // Deactivated people cannot start sessions.
          before: async (session) => {
            const { rows } = await db.query<{ state: string; deleted_at: string | null }>(
              'SELECT state, deleted_at FROM people WHERE id = $1',
              [session.userId],
            );
            if (!rows[0] || rows[0].state !== 'active' || rows[0].deleted_at) {
              throw new APIError('FORBIDDEN', {
                code: 'USER_INACTIVE',
                message: 'This account is deactivated. Ask an administrator.',
              });
            }
          },
        },
      },
    },
    plugins: [
      twoFactor({
        issuer: 'Opsdeck',
        schema: {
          user: { fields: { twoFactorEnabled: 'two_factor_enabled' } },
          twoFactor: {
            modelName: 'auth_two_factors',
            fields: {
              userId: 'person_id',
              backupCodes: 'backup_codes',
              failedVerificationCount: 'failed_verification_count',
              lockedUntil: 'locked_until',
            },
          },
        },
      }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'oidc',
                  discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type BetterAuth = Awaited<ReturnType<typeof createBetterAuth>>;

/** The session cookie better-auth sets (with the Secure prefix behind https). */
export const sessionCookieNames = ['opsdeck.session_token', '__Secure-opsdeck.session_token'];
