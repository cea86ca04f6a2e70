import { randomInt } from 'node:crypto';
import { CognitoError } from './errors.ts';

/** Cognito's special characters for the "symbol" rule. */
const SYMBOLS = `^$*.[]{}()?"!@#%&/\\,><':;|_~\`=+- `;

const RULES: Array<[test: (password: string) => boolean, failure: string]> = [
  [(p) => p.length >= 8, 'Password not long enough'],
  [(p) => /[a-z]/.test(p), 'Password must have lowercase characters'],
  [(p) => /[A-Z]/.test(p), 'Password must have uppercase characters'],
  [(p) => /[0-9]/.test(p), 'Password must have numeric characters'],
  [(p) => [...p].some((c) => SYMBOLS.includes(c)), 'Password must have symbol characters'],
];

/** Throws InvalidPasswordException with Cognito's wording for the first rule broken. */
export function assertPasswordPolicy(password: string): void {
  if (password !== password.trim()) {
    throw new CognitoError(
      'InvalidPasswordException',
      'Password does not conform to policy: Password must not begin or end with a space',
    );
  }
  for (const [test, failure] of RULES) {
    if (!test(password)) {
      throw new CognitoError('InvalidPasswordException', `Password does not conform to policy: ${failure}`);
    }
  }
}

const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)];

/** A 12-character temporary password meeting the policy, without look-alike characters. */
export function generateTemporaryPassword(): string {
  const lower = 'abcdefghijkmnpqrstuvwxyz';
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const symbols = '!#%&*+-=?@';
  const all = lower + upper + digits + symbols;
  const chars = [pick(lower), pick(upper), pick(digits), pick(symbols)];
  while (chars.length < 12) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/** A random 6-digit code, leading zeros kept. */
export function generateCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}
