import { describe, expect, it } from 'vitest';
import { environment } from '../../src/app/environment.ts';
import { localIdentity } from '../../src/contract/auth-settings.ts';
import { partnerPageTypes, partnerTypes } from '../../src/contract/partner-types.ts';
import { identitySettings } from '../../server/config.ts';

describe('the contract shared by the gateway and the app', () => {
  it('gives the identity stand-in and the app the same pools and paths', () => {
    expect(identitySettings).toMatchObject(localIdentity);
    const origin = window.location.origin;
    expect(environment.auth).toMatchObject({
      region: localIdentity.region,
      userPoolId: localIdentity.userPoolId,
      userPoolClientId: localIdentity.userPoolClientId,
      identityPoolId: localIdentity.identityPoolId,
      userPoolEndpoint: `${origin}${localIdentity.userPoolPath}`,
      identityPoolEndpoint: `${origin}${localIdentity.identityPoolPath}`,
    });
  });

  it('lets a partner page create an admin of every partner type but the operator company', () => {
    expect(partnerPageTypes).toEqual(partnerTypes.filter((type) => type !== 'operator'));
    expect(partnerPageTypes).toHaveLength(5);
  });
});
