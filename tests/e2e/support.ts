import { expect, type Page, type APIRequestContext } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo#Locker2026';

interface OutboxMessage {
  to: string;
  subject: string;
  body: string;
  code?: string;
  sentAt: string;
}

/** The newest e-mail to `to` sent after `since` (the identity stand-in's local outbox). */
export async function latestCode(request: APIRequestContext, to: string, since: number): Promise<string> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await request.get('/__dev/outbox')).json()) as OutboxMessage[];
      found = outbox.filter((m) => m.to === to && Date.parse(m.sentAt) >= since - 1000 && m.code).pop();
      return Boolean(found);
    })
    .toBe(true);
  return found!.code!;
}

export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  const since = Date.now();
  await page.getByLabel(/Username or email|Nom d'utilisateur/).fill(username);
  await page.getByLabel(/^Password|^Mot de passe/).fill(password);
  await page.getByRole('button', { name: /Sign in|Se connecter/ }).click();
  const code = await latestCode(page.request, `${username}@demo.locker.test`, since);
  await page.getByLabel(/Validation code|Code de validation/).fill(code);
  await page.getByRole('button', { name: /Verify|Vérifier/ }).click();
}
