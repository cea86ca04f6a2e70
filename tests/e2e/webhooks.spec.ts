import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { listUrl } from './pages.ts';
import { expect, seriousViolations, signedInPage, test } from './support.ts';

const fixture = (name: string) => readFileSync(new URL(`../server/support/fixtures/${name}`, import.meta.url));

/** NordPost's receiver, on loopback (a local gateway delivers nowhere else): counts each event id it gets. */
async function startReceiver() {
  const received: string[] = [];
  const server: Server = createServer({
    key: fixture('loopback-receiver.key'),
    cert: fixture('loopback-receiver.crt'),
  });
  server.on('request', (request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(String(request.headers['webhook-id']));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/nordpost`, received, server };
}

test('the operator resends NordPost’s failed hour and each event reaches the receiver once', async ({ browser }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  try {
    const page = await signedInPage(browser, 'operator');
    // NordPost's receiver is back, at a new address.
    await page.goto('/carriers');
    await page.getByRole('cell', { name: 'NordPost' }).click();
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByRole('textbox', { name: 'Webhook return URL' }).fill(receiver.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/carriers(\?.*)?$/);

    // Its failed events (the seeded outage hour, two days ago 14:00-15:00 UTC).
    await page.goto(listUrl('/webhooks', { filter: { carrier_id: 1, status: 'failed' }, perPage: 100 }));
    const rows = page.locator('tbody tr');
    await expect(rows.first()).toContainText('Failed');
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    for (const row of await rows.all()) await expect(row).toContainText('NordPost');
    const ids = (await page.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((text) => text.trim());

    await page.getByRole('checkbox', { name: 'Choose the rows of this page (at most 500)' }).check();
    const bar = page.getByTestId('webhook-resend-bar');
    await expect(bar).toContainText(`${count} chosen`);
    expect(await seriousViolations(page)).toEqual([]);
    await bar.getByRole('button', { name: `Resend ${count} events` }).click();
    const dialog = page.getByRole('dialog', { name: 'Resend' });
    await expect(dialog).toContainText(`Send the ${count} chosen events to the carrier's return URL again?`);
    await dialog.getByRole('button', { name: `Resend ${count} events` }).click();
    await expect(page.getByText(`${count} of ${count} events are queued for delivery.`)).toBeVisible();

    // The worker delivers them within seconds: each id exactly once. NordPost's other events that came due since
    // the seed go to its new address too (the demo database is older by the time the journeys run): only the
    // resent ones are counted.
    const resentReceived = () => receiver.received.filter((id) => ids.includes(id));
    await expect.poll(() => new Set(resentReceived()).size, { timeout: 60_000 }).toBe(count);
    expect(resentReceived().sort()).toEqual([...ids].sort());

    // The log of one of them says so.
    await page.goto(`/webhooks/${ids[0]}/show`);
    await expect(page.getByText('Delivered').first()).toBeVisible();
    await page.getByRole('tab', { name: 'Delivery log' }).click();
    const log = page.getByTestId('webhook-delivery-log');
    await expect(log.locator('tbody tr').first()).toContainText('Delivered');
    await expect(log.locator('tbody tr').first()).toContainText('200');
    await expect(log).toContainText('Refused by the receiver');
    await expect(log).toContainText('503');
  } finally {
    receiver.server.close();
  }
});

test('a carrier sees only its own webhook events, in French too; a support provider gets the not-found page', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'carrier2', { locale: 'fr-FR' });
  await page.goto('/webhooks');
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText('FjordFrakt');
  await expect(page.getByRole('columnheader', { name: "Type d'événement" })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: "État de l'envoi" })).toBeVisible();
  await expect(rows.first()).toContainText(/Livré|Échec|En attente/);

  const support = await signedInPage(browser, 'support');
  await support.goto('/webhooks');
  await expect(support.getByTestId('not-found')).toBeVisible();
});

test('the operator keeps the infinity test app users: a refusal keeps the input, then create, find and delete', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/test-app-users');
  await expect(page.getByRole('cell', { name: 'QA phone Copenhagen' })).toBeVisible();
  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('QA tablet Aarhus');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Enter a phone number or an e-mail address.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('QA tablet Aarhus');
  // A phone another test app user has, typed without spaces.
  await page.getByRole('textbox', { name: 'Phone' }).fill('+4520000001');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Another test app user already has it.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Phone' }).fill('+45 20 00 00 55');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/test-app-users(\?.*)?$/);
  await expect(page.getByRole('cell', { name: 'QA tablet Aarhus' })).toBeVisible();

  await page.getByRole('cell', { name: 'QA tablet Aarhus' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/test-app-users(\?.*)?$/);
  await expect(page.getByRole('cell', { name: 'QA tablet Aarhus' })).toHaveCount(0);
});

test('notifications: the operator finds a piece’s messages in words and opens the piece; the hotline reads them masked, in French', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto(listUrl('/notifications', { filter: { piece_id: 'DEMO-WAITING-1' } }));
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Kind' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Delivery status' })).toBeVisible();
  // Kinds, channels and statuses in words; the message in the end user's language; the recipient in full.
  const token = rows.filter({ hasText: 'Token message' });
  await expect(token.first()).toContainText(/SMS|E-mail|Push \(app\)/);
  await expect(token.first()).toContainText(/Delivered|Failed|Sent/);
  await expect(token.first()).toContainText(/your parcel .* is waiting at|vous attend au point/);
  await expect(token.first()).not.toContainText('***');
  await expect(page.getByText('token_message')).toHaveCount(0);
  // The piece is a link to its page, whose notifications are the same.
  await token.first().getByRole('link', { name: 'DEMO-WAITING-1' }).click();
  await expect(page).toHaveURL(/\/shipments\/DEMO-WAITING-1\/show/);
  await expect(page.getByRole('table', { name: 'Notifications' })).toContainText('Token message');
  await page.getByRole('link', { name: 'All notifications of this piece' }).click();
  await expect(page).toHaveURL(/\/notifications/);
  await expect(rows.first()).toContainText('DEMO-WAITING-1');

  const support = await signedInPage(browser, 'support', { locale: 'fr-FR' });
  await support.goto(listUrl('/notifications', { filter: { piece_id: 'DEMO-WAITING-1' } }));
  const masked = support.locator('tbody tr');
  await expect(masked.first()).toBeVisible();
  await expect(support.getByRole('columnheader', { name: 'Destinataire' })).toBeVisible();
  await expect(masked.filter({ hasText: 'Message du code' }).first()).toContainText('***');
  for (const row of await masked.all()) await expect(row).toContainText('***');

  const maintenance = await signedInPage(browser, 'maintenance');
  await maintenance.goto('/notifications');
  await expect(maintenance.getByTestId('not-found')).toBeVisible();
});
