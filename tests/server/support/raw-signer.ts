import { createHash, createHmac } from 'node:crypto';
import type { SigningSession } from '../../../src/dataProvider/signed-fetch.ts';

/**
 * A synchronous SigV4 signer (service execute-api) producing the same headers as the app's
 * `signRequest`, for callers that cannot await (autocannon's setupRequest) or that must sign a
 * raw body that is not JSON (fuzzing). `signRequest` stays the reference: a test compares both.
 */
export interface RawRequest {
  method: string;
  host: string;
  /** Absolute path, e.g. /webtool/service_points. */
  path: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const escape = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function amzDate(now = new Date()) {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The query string as sent, with the same encoding the signature uses. */
export function queryString(query: Record<string, string> = {}) {
  const keys = Object.keys(query).sort();
  return keys.map((key) => `${escape(key)}=${escape(query[key])}`).join('&');
}

/** Signing keys by secret, day and region: the key depends on nothing else (a load test signs 1,000 calls a second). */
const signingKeys = new Map<string, Buffer>();

function signingKey(secretAccessKey: string, shortDate: string, region: string) {
  const id = `${secretAccessKey}\n${shortDate}\n${region}`;
  let key = signingKeys.get(id);
  if (!key) {
    key = hmac(`AWS4${secretAccessKey}`, shortDate);
    for (const part of [region, 'execute-api', 'aws4_request']) key = hmac(key, part);
    if (signingKeys.size >= 1000) signingKeys.clear();
    signingKeys.set(id, key);
  }
  return key;
}

export function signRaw(request: RawRequest, session: SigningSession, now = new Date()): Record<string, string> {
  const credentials = session.credentials;
  if (!credentials) throw new Error('signRaw needs identity-pool credentials');
  const longDate = amzDate(now);
  const shortDate = longDate.slice(0, 8);
  const payloadHash = sha256(request.body ?? '');
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(request.body !== undefined ? { 'content-type': request.contentType ?? 'application/json' } : {}),
    'x-auth-token': session.idToken,
    host: request.host,
    'x-amz-date': longDate,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
    'x-amz-content-sha256': payloadHash,
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    request.method,
    request.path
      .split('/')
      .map((segment) => escape(segment))
      .join('/'),
    queryString(request.query),
    names.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}`).join('\n') + '\n',
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${shortDate}/${session.region}/execute-api/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', longDate, scope, sha256(canonical)].join('\n');
  const signature = createHmac('sha256', signingKey(credentials.secretAccessKey, shortDate, session.region))
    .update(stringToSign)
    .digest('hex');
  const signed: Record<string, string> = {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
  delete signed.host;
  return signed;
}
