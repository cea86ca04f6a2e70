import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';

const ROLES = 'webtool/identity_access/roles';

let stack: Stack;
let superadmin: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  superadmin = await stack.signIn('superadmin');
  carrier = await stack.signIn('carrier');
});
afterAll(() => stack.close());

const roleNamed = async (roleName: string) => {
  const listed = await stack.send(superadmin, { method: 'GET', path: ROLES, query: { search: roleName } });
  return (listed.body.data as Record<string, unknown>[]).find((role) => role.role_name === roleName)!;
};

describe('role descriptions per language', () => {
  it('reach the signed-in user with the navigation data, beside the description the super-admin check reads', async () => {
    const nav = await stack.send(superadmin, {
      method: 'GET',
      path: 'webtool/identity_access/nav_drawer',
      query: { userinfo: '' },
    });
    expect(nav.body.data).toMatchObject({
      role: {
        role_description: 'Super admin of the network operator',
        role_description_translations: { 'fr-FR': "Super administrateur de l'opérateur du réseau" },
      },
      partner_info: { is_super_admin: true },
    });
  });

  it('are saved with the role, and a French text longer than the rule allows is refused', async () => {
    const role = await roleNamed('carrier_2_admin');
    expect(role.role_description_translations).toEqual({ 'fr-FR': 'Administrateur de FjordFrakt' });
    const saved = await stack.send(superadmin, {
      method: 'PATCH',
      path: ROLES,
      body: {
        role_name: 'carrier_2_admin',
        version: role.version,
        role_description_translations: { 'fr-FR': 'Administratrice de FjordFrakt' },
      },
    });
    expect(saved.status).toBe(200);
    expect((await roleNamed('carrier_2_admin')).role_description_translations).toEqual({
      'fr-FR': 'Administratrice de FjordFrakt',
    });

    const refused = await stack.send(superadmin, {
      method: 'PATCH',
      path: ROLES,
      body: {
        role_name: 'carrier_2_admin',
        version: (await roleNamed('carrier_2_admin')).version,
        role_description_translations: { 'fr-FR': 'x'.repeat(256) },
      },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('validation.max_length');
  });

  it('come in French to a carrier whose role has them', async () => {
    const nav = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/identity_access/nav_drawer',
      query: { userinfo: '' },
    });
    expect(nav.body.data).toMatchObject({
      role: { role_description_translations: { 'fr-FR': 'Administrateur de NordPost' } },
    });
  });
});
