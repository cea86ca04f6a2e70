import { DATABASE_UNAVAILABLE } from '../../contract/errors.ts';

/** Maps identity-service failures to catalogue messages (spec 01 §8). */
export function signInErrorKey(error: unknown): string {
  const { name = '', message = '' } = (error ?? {}) as { name?: string; message?: string };
  if (/blocked for 2 minutes/i.test(message)) return 'auth.errors.blocked';
  // Cognito's answer while wrong passwords have locked the user or the address out.
  if (/password attempts exceeded/i.test(message)) return 'auth.errors.attempt_limit';
  if (/disabled/i.test(message)) return 'auth.errors.contact_admin';
  if (/temporary password has expired/i.test(message)) return 'auth.errors.temporary_password';
  if (/session is expired|invalid session/i.test(message)) return 'auth.errors.login_expired';
  switch (name) {
    case 'NotAuthorizedException':
    case 'UserNotFoundException':
      return 'auth.errors.incorrect';
    case 'UserNotConfirmedException':
      return 'auth.errors.pending_confirmation';
    case 'PasswordResetRequiredException':
      return 'auth.errors.password_reset_required';
    case 'LimitExceededException':
    case 'TooManyRequestsException':
      return 'auth.errors.attempt_limit';
    case 'InvalidPasswordException':
      return 'auth.errors.password_constraints';
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
      return 'auth.errors.invalid_code';
    case DATABASE_UNAVAILABLE.identityErrorType:
      return DATABASE_UNAVAILABLE.messageKey;
    default:
      return 'auth.errors.generic';
  }
}

/** Refusals of a signed-in user's password change. */
export function changePasswordErrorKey(error: unknown): string {
  const { name, message = '' } = (error ?? {}) as { name?: string; message?: string };
  if (name === 'NotAuthorizedException') {
    // A session signed out elsewhere is refused for its token, not for the password typed.
    if (/access token/i.test(message)) return 'http.token_expired_login';
    // Otherwise the refused password is the old one the user typed, not a sign-in.
    return 'auth.errors.old_password';
  }
  return signInErrorKey(error);
}

/** How long the account is blocked, in seconds, when the identity service says it has just blocked it. */
export function blockedSeconds(error: unknown): number | undefined {
  const { message = '' } = (error ?? {}) as { message?: string };
  const minutes = /blocked for (\d+) minutes?/i.exec(message)?.[1];
  return minutes === undefined ? undefined : Number(minutes) * 60;
}
