import { isComplexPassword } from '../../schema/validators/password.ts';

/** The password rules of spec 01 §5, as translation keys. */
export function passwordProblem(password: string, confirmation: string): string | undefined {
  if (!isComplexPassword(password)) return 'auth.errors.password_constraints';
  if (password !== confirmation) return 'auth.errors.confirm_mismatch';
  return undefined;
}
