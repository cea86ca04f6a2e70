import { describe, expect, it } from 'vitest';
import { blockedSeconds, changePasswordErrorKey, signInErrorKey } from '../../src/custom/account/sign-in-errors.ts';
import en from '../../locales/en-US.json';

const error = (name: string, message = '') => Object.assign(new Error(message), { name });

describe('sign-in error messages', () => {
  it.each([
    [
      error('NotAuthorizedException', 'Incorrect username or password.'),
      'auth.errors.incorrect',
      'Username or password incorrect.',
    ],
    [
      error('UserNotFoundException', 'User does not exist.'),
      'auth.errors.incorrect',
      'Username or password incorrect.',
    ],
    [
      error('NotAuthorizedException', 'Account is blocked for 2 minutes.'),
      'auth.errors.blocked',
      'Account is blocked for 2 minutes.',
    ],
    [
      error('NotAuthorizedException', 'User is disabled.'),
      'auth.errors.contact_admin',
      'Something went wrong, please contact Admin',
    ],
    [error('PasswordResetRequiredException'), 'auth.errors.password_reset_required', 'Password reset required.'],
    [
      error('LimitExceededException'),
      'auth.errors.attempt_limit',
      'Attempt limit exceeded, please try after some time.',
    ],
    [
      error('NotAuthorizedException', 'Temporary password has expired and must be reset by an administrator.'),
      'auth.errors.temporary_password',
      'Invalid or expired temporary password.',
    ],
    [
      error('NotAuthorizedException', 'Password attempts exceeded'),
      'auth.errors.attempt_limit',
      'Attempt limit exceeded, please try after some time.',
    ],
    [error('InvalidPasswordException'), 'auth.errors.password_constraints', 'Password constraints are not met.'],
    [error('CodeMismatchException'), 'auth.errors.invalid_code', 'Invalid validation code.'],
    [
      error('ServiceUnavailableException', 'The database cannot be reached right now.'),
      'http.database_unavailable',
      'The database cannot be reached right now. Please try again in a few seconds.',
    ],
    [
      error('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
      'auth.errors.login_expired',
      'Login is expired.',
    ],
  ])('maps %s to its catalogue message', (failure, key, text) => {
    expect(signInErrorKey(failure)).toBe(key);
    const message = key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], en);
    expect(message).toBe(text);
  });

  it('reads how long a block lasts from the identity service', () => {
    expect(blockedSeconds(error('NotAuthorizedException', 'Account is blocked for 2 minutes.'))).toBe(120);
    expect(blockedSeconds(error('NotAuthorizedException', 'Password attempts exceeded'))).toBeUndefined();
  });

  it('falls back to the generic message for anything else', () => {
    expect(signInErrorKey(new TypeError('Failed to fetch'))).toBe('auth.errors.generic');
    expect(signInErrorKey(undefined)).toBe('auth.errors.generic');
  });
});

describe('password change error messages', () => {
  const refused = (message: string) => Object.assign(new Error(message), { name: 'NotAuthorizedException' });

  it('blames the old password only when the password was refused', () => {
    expect(changePasswordErrorKey(refused('Incorrect username or password.'))).toBe('auth.errors.old_password');
  });

  it.each(['Access Token has been revoked', 'Access Token has expired', 'Invalid Access Token'])(
    'asks to sign in again when the session was refused: %s',
    (message) => {
      expect(changePasswordErrorKey(refused(message))).toBe('http.token_expired_login');
    },
  );

  it('reads other failures as sign-in ones', () => {
    const weak = Object.assign(new Error('Password does not conform to policy'), { name: 'InvalidPasswordException' });
    expect(changePasswordErrorKey(weak)).toBe('auth.errors.password_constraints');
  });
});
