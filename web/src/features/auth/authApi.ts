// Calls of the identity flows (docs/auth-api.md). Sign-in and flow calls handle their own 401s
// (a wrong password is not a lost session).
import { api } from '../../api/client';

const flow = { on401: 'throw' as const };

export interface SignInAnswer {
  user?: { id: string; email: string; name: string };
  twoFactorRedirect?: boolean;
}

export const authApi = {
  signIn: (email: string, password: string) =>
    api.post<SignInAnswer>('/api/auth/sign-in/email', { email, password, rememberMe: true }, flow),
  verifyTotp: (code: string) => api.post<unknown>('/api/auth/two-factor/verify-totp', { code }, flow),
  // better-auth's genericOAuth providers sign in through /sign-in/social (there is no /sign-in/oauth2).
  signInOidc: (callbackURL: string) =>
    api.post<{ url: string; redirect: boolean }>(
      '/api/auth/sign-in/social',
      { provider: 'oidc', callbackURL, errorCallbackURL: '/error' },
      flow,
    ),
  signUp: (name: string, email: string, password: string) =>
    api.post<unknown>('/api/auth/sign-up/email', { name, email, password }, flow),
  getInvite: (token: string, signal?: AbortSignal) =>
    api.get<{ email: string; name: string }>('/api/auth/invite', { query: { token }, signal, ...flow }),
  acceptInvite: (token: string, password: string) =>
    api.post<{ email: string }>('/api/auth/invite/accept', { token, password }, flow),
  requestPasswordReset: (email: string) =>
    api.post<unknown>('/api/auth/request-password-reset', { email, redirectTo: '/recovery' }, flow),
  resetPassword: (token: string, newPassword: string) =>
    api.post<unknown>('/api/auth/reset-password', { token, newPassword }, flow),
  // The server redirects a good link to callbackURL as it is and a bad one with ?error= added.
  sendVerificationEmail: (email: string) =>
    api.post<unknown>('/api/auth/send-verification-email', { email, callbackURL: '/verification?verified=true' }, flow),

  // Signed-in profile calls: a 401 there is a lost session like anywhere else.
  updateName: (name: string) => api.post<unknown>('/api/auth/update-user', { name }),
  changeEmail: (newEmail: string) =>
    api.post<unknown>('/api/auth/change-email', { newEmail, callbackURL: '/profile-settings' }),
  changePassword: (currentPassword: string, newPassword: string) =>
    api.post<unknown>('/api/auth/change-password', { currentPassword, newPassword, revokeOtherSessions: true }),
  enableTwoFactor: (password: string) =>
    api.post<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password }),
  confirmTwoFactor: (code: string) => api.post<unknown>('/api/auth/two-factor/verify-totp', { code }),
  disableTwoFactor: (password: string) => api.post<unknown>('/api/auth/two-factor/disable', { password }),
};

/** The secret of an otpauth:// URI, for people who type it in instead of scanning. */
export function totpSecret(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get('secret') ?? undefined;
  } catch {
    return undefined;
  }
}
