import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, type IdentityVerifier } from '../../server/gateway/request-auth.ts';
import { signRequest, type GatewayRequest, type SigningSession } from '../../src/dataProvider/signed-fetch.ts';

const apiBase = 'http://localhost:8080';
const credentials = { accessKeyId: 'ASIALOCALKEY1', secretAccessKey: 'local-secret', sessionToken: 'session-token-1' };
const session: SigningSession = {
  region: 'eu-west-1',
  idToken: 'id-token-ok',
  accessToken: 'access-token-ok',
  credentials,
};

const identity: IdentityVerifier = {
  verifyIdToken: async (token) => {
    if (token !== 'id-token-ok') throw new Error('bad token');
    return { sub: 's1', 'cognito:username': 'operator', 'cognito:groups': ['operator_infinity_admin'] };
  },
  verifyAccessToken: async (token) => {
    if (token !== 'access-token-ok') throw new Error('bad token');
    return { sub: 's1', username: 'operator' };
  },
  findCredentials: async (id) => {
    const found = id === credentials.accessKeyId ? credentials : moreCredentials.get(id);
    return found ? { ...found, username: 'operator', expiresAt: new Date(Date.now() + 60_000) } : null;
  },
};
/** Further identity-pool credentials the identity knows, by access key id. */
const moreCredentials = new Map<string, typeof credentials>();

const app = Fastify();
app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
  request.rawBody = body as string;
  done(null, JSON.parse(body as string));
});
app.all('/webtool/*', async (request, reply) => {
  try {
    const caller = await authenticate(request, identity);
    return { caller };
  } catch (error) {
    return reply.status((error as { status: number }).status ?? 500).send({ message: (error as Error).message });
  }
});
beforeAll(() => app.ready());
afterAll(() => app.close());

async function send(
  request: GatewayRequest,
  tamper: (init: { url: string; headers: Record<string, string>; body?: string }) => void = () => {},
  signing = session,
) {
  const { url, init } = await signRequest(apiBase, request, signing);
  const message = {
    url,
    headers: { ...init.headers, host: 'localhost:8080' },
    body: init.body,
  };
  tamper(message);
  return app.inject({
    method: request.method,
    url: message.url.replace(apiBase, ''),
    headers: message.headers,
    payload: message.body,
  });
}

describe('webtool request authentication', () => {
  it('accepts a SigV4-signed request with its id token', async () => {
    const response = await send({
      method: 'GET',
      path: 'webtool/service_points',
      query: { search: "O'Brien & Søn", limit: 15 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().caller).toMatchObject({
      username: 'operator',
      via: 'sigv4',
      groups: ['operator_infinity_admin'],
    });
  });

  it('accepts what the app signs for any path, query and header the signer takes in, and refuses it changed', async () => {
    // The check builds the string to sign itself around the signer library's canonical request (issue 32): the
    // paths, queries and headers the library normalises or escapes must still give the signature the app made.
    const requests: GatewayRequest[] = [
      {
        method: 'GET',
        path: 'webtool/service_points',
        query: { a: '', b: ' ', c: "!'()*~-_.", d: 'ü€😀', e: 'x=y&z' },
      },
      { method: 'GET', path: 'webtool/service_points', query: { 'odd key': 'a+b%20c/d?e#f', order_by: 'name' } },
      { method: 'GET', path: 'webtool/./service_points/../service_points/', query: { offset: 0, limit: 500 } },
      { method: 'GET', path: 'webtool/service_points/hardware_units', query: { search: '  two  spaces  ' } },
      {
        method: 'POST',
        path: 'webtool/tickets',
        body: { text: 'Ærø  \n tab\t', n: 1 },
        headers: { 'x-note': '  a \t b  ' },
      },
      { method: 'DELETE', path: 'webtool/couriers', query: { courier_id: 7 } },
    ];
    for (const request of requests) {
      const accepted = await send(request);
      expect(accepted.statusCode, JSON.stringify(request)).toBe(200);
      const moved = await send(request, (m) => {
        m.url = m.url.replace('/webtool/', '/webtool/x');
      });
      expect(moved.statusCode, JSON.stringify(request)).toBe(401);
      const redated = await send(request, (m) => {
        m.headers['x-amz-date'] = m.headers['x-amz-date'].replace(
          /\d(Z)$/,
          (d: string) => `${(Number(d[0]) + 1) % 10}Z`,
        );
      });
      expect(redated.statusCode, JSON.stringify(request)).toBe(401);
    }
  });

  it('accepts a signed body', async () => {
    const response = await send({ method: 'PATCH', path: 'webtool/couriers', body: { courier_id: 1, code: 'AB12' } });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a request without credentials', async () => {
    const response = await app.inject({ method: 'GET', url: '/webtool/service_points' });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a tampered signature', async () => {
    const response = await send({ method: 'GET', path: 'webtool/service_points' }, (m) => {
      m.headers.authorization = m.headers.authorization.replace(
        /Signature=(.)/,
        (_, c) => `Signature=${c === 'a' ? 'b' : 'a'}`,
      );
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a query changed after signing', async () => {
    const response = await send({ method: 'GET', path: 'webtool/service_points', query: { limit: 15 } }, (m) => {
      m.url = m.url.replace('limit=15', 'limit=1000');
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a body changed after signing', async () => {
    const response = await send({ method: 'PATCH', path: 'webtool/couriers', body: { courier_id: 1 } }, (m) => {
      m.body = JSON.stringify({ courier_id: 2 });
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an unknown access key and an invalid id token', async () => {
    const unknownKey = await send({ method: 'GET', path: 'webtool/x' }, () => {}, {
      ...session,
      credentials: { ...credentials, accessKeyId: 'ASIAOTHER' },
    });
    expect(unknownKey.statusCode).toBe(401);
    const badToken = await send({ method: 'GET', path: 'webtool/x' }, (m) => {
      m.headers['x-auth-token'] = 'forged';
    });
    expect(badToken.statusCode).toBe(401);
  });

  it('checks each caller against their own secret, for more callers than the signer library keeps keys of', async () => {
    // The gateway keeps each caller's signing key (the library's signer keeps 50): a kept key is its secret's.
    const callers = Array.from({ length: 60 }, (_, index) => ({
      accessKeyId: `ASIAKEY${index}`,
      secretAccessKey: `secret-${index}`,
      sessionToken: `session-token-${index}`,
    }));
    for (const caller of callers) moreCredentials.set(caller.accessKeyId, caller);
    for (const caller of [...callers, ...callers.slice(0, 5)]) {
      const response = await send({ method: 'GET', path: 'webtool/x' }, () => {}, { ...session, credentials: caller });
      expect(response.statusCode).toBe(200);
    }
    const otherSecret = await send({ method: 'GET', path: 'webtool/x' }, () => {}, {
      ...session,
      credentials: { ...callers[3], secretAccessKey: callers[4].secretAccessKey },
    });
    expect(otherSecret.statusCode).toBe(401);
    // New credentials under the same key id: the old secret's signatures no longer pass.
    moreCredentials.set(callers[7].accessKeyId, { ...callers[7], secretAccessKey: 'rotated-secret' });
    const oldSecret = await send({ method: 'GET', path: 'webtool/x' }, () => {}, {
      ...session,
      credentials: callers[7],
    });
    expect(oldSecret.statusCode).toBe(401);
    const newSecret = await send({ method: 'GET', path: 'webtool/x' }, () => {}, {
      ...session,
      credentials: { ...callers[7], secretAccessKey: 'rotated-secret' },
    });
    expect(newSecret.statusCode).toBe(200);
  });

  it('refuses a stale signing date', async () => {
    const response = await send({ method: 'GET', path: 'webtool/x' }, (m) => {
      m.headers['x-amz-date'] = '20200101T000000Z';
    });
    expect(response.statusCode).toBe(401);
  });

  it('accepts the single-sign-on token pair and refuses a forged one', async () => {
    const ok = await send({ method: 'GET', path: 'webtool/x' }, () => {}, { ...session, credentials: undefined });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().caller.via).toBe('sso');
    const forged = await app.inject({
      method: 'GET',
      url: '/webtool/x',
      headers: { authorization: 'access-token-ok,forged' },
    });
    expect(forged.statusCode).toBe(401);
  });
});
