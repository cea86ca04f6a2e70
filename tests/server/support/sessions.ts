import type { SigningSession } from '../../../src/dataProvider/signed-fetch.ts';
import type { Stack } from './stack.ts';

/**
 * Signs each demo user in, one after the other (each reads its own e-mailed code), and gives their
 * sessions by user name: call it once in `beforeAll`, as
 * `({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']))`.
 */
export async function signInAll<const User extends string>(
  stack: Pick<Stack, 'signIn'>,
  users: readonly User[],
): Promise<Record<User, SigningSession>> {
  const sessions = {} as Record<User, SigningSession>;
  for (const user of users) sessions[user] = await stack.signIn(user);
  return sessions;
}
