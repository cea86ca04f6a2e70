/**
 * Throttling of wrong passwords, as Cognito does it: a few free failures in a row, then each one
 * locks the user, and separately the client address, for twice as long as the one before (up to a
 * cap). While locked, even the right password is refused with Cognito's own message. A proven
 * password clears both counts.
 */
import { identitySettings } from '../config.ts';
import type { Store } from './store.ts';

export const PASSWORD_ATTEMPTS_EXCEEDED = 'Password attempts exceeded';

/** Who tried: the user (or the unknown login typed) and the address the request came from. */
export interface PasswordAttempt {
  login: string;
  sourceIp: string;
}

const settings = identitySettings.passwordAttempts;

/** Seconds of lockout after `failures` wrong passwords in a row, of which `free` cost nothing. */
export function lockoutSeconds(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(settings.firstLockoutSeconds * 2 ** (failures - free - 1), settings.maxLockoutSeconds);
}

const userSubject = (login: string) => `user:${login.toLowerCase()}`;
const addressSubject = (sourceIp: string) => `address:${sourceIp}`;

export function createPasswordAttempts(deps: { store: Store; now: () => number }) {
  const { store } = deps;
  const subjectsOf = (attempt: PasswordAttempt) => [userSubject(attempt.login), addressSubject(attempt.sourceIp)];

  return {
    /** Whether the user or the address is locked out now; callers answer in their own protocol. */
    async locked(attempt: PasswordAttempt): Promise<boolean> {
      return (await store.passwordLockedUntil(subjectsOf(attempt), new Date(deps.now()))) !== null;
    },

    async recordFailure(attempt: PasswordAttempt): Promise<void> {
      const now = deps.now();
      const subjects = subjectsOf(attempt);
      const [userFailures, addressFailures] = await store.recordPasswordFailures(
        subjects,
        new Date(now),
        new Date(now - settings.memorySeconds * 1000),
      );
      const locks = [
        lockoutSeconds(userFailures, settings.freeFailuresPerUser),
        lockoutSeconds(addressFailures, settings.freeFailuresPerAddress),
      ];
      for (const [index, seconds] of locks.entries()) {
        if (seconds > 0) await store.lockPasswordAttempts(subjects[index], new Date(now + seconds * 1000));
      }
    },

    async recordSuccess(attempt: PasswordAttempt): Promise<void> {
      await store.clearPasswordFailures(subjectsOf(attempt));
    },
  };
}
