import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import type { GatewayRequest, QueryValue } from '../contract/gateway.ts';

export interface SigningSession {
  region: string;
  idToken: string;
  accessToken: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export type { GatewayRequest, QueryValue };

function cleanQuery(query: Record<string, QueryValue> = {}) {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    clean[key] = String(value);
  }
  return clean;
}

/**
 * Builds the fetch arguments of a webtool call. With identity-pool credentials the request is
 * SigV4-signed (service execute-api) and carries the id token in x-auth-token; without them
 * (single sign-on) Authorization is `<access token>,<id token>`.
 */
export interface SignedRequest {
  url: string;
  init: { method: GatewayRequest['method']; body?: string; headers: Record<string, string> };
}

export async function signRequest(
  apiBase: string,
  request: GatewayRequest,
  session: SigningSession,
): Promise<SignedRequest> {
  const base = new URL(apiBase);
  const path = `${base.pathname.replace(/\/$/, '')}/${request.path.replace(/^\//, '')}`;
  const query = cleanQuery(request.query);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) search.append(key, value);
  const url = `${base.origin}${path}${Object.keys(query).length ? `?${search.toString().replace(/\+/g, '%20')}` : ''}`;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...request.headers,
    'x-auth-token': session.idToken,
  };

  if (!session.credentials) {
    return {
      url,
      init: {
        method: request.method,
        body,
        headers: {
          ...headers,
          accept: request.headers?.accept ?? 'application/x-www-form-urlencoded',
          authorization: `${session.accessToken},${session.idToken}`,
        },
      },
    };
  }
  const signer = new SignatureV4({
    credentials: session.credentials,
    region: session.region,
    service: 'execute-api',
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: request.method,
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port ? Number(base.port) : undefined,
    path,
    query,
    headers: { ...headers, host: base.host },
    body,
  });
  const finalHeaders = { ...signed.headers } as Record<string, string>;
  delete finalHeaders.host;
  return { url, init: { method: request.method, body, headers: finalHeaders } };
}
