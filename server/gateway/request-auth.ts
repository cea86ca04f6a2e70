import { createHash, createHmac, timingSafeEqual, type Hash, type Hmac } from 'node:crypto';
import {
  ALGORITHM_IDENTIFIER,
  AMZ_DATE_HEADER,
  createScope,
  GENERATED_HEADERS,
  getCanonicalHeaders,
  hasHeader,
  SHA256_HEADER,
  SignatureV4,
  TOKEN_HEADER,
} from '@smithy/signature-v4';
import type { FastifyRequest } from 'fastify';
import { DatabaseUnavailableError } from '../db/adapter.ts';
import { unauthorized } from './http-error.ts';

export interface Caller {
  username: string;
  email?: string;
  groups: string[];
  familyName?: string;
  /** 'sigv4' for identity-pool signed calls, 'sso' for the single-sign-on token pair. */
  via: 'sigv4' | 'sso';
  /** When the first of the call's credentials and tokens expires (ms since 1970): a live stream ends then. */
  expiresAt?: number;
}

export interface IdentityVerifier {
  verifyIdToken(token: string): Promise<Record<string, unknown>>;
  verifyAccessToken(token: string): Promise<Record<string, unknown>>;
  findCredentials(accessKeyId: string): Promise<{
    secretAccessKey: string;
    sessionToken: string;
    username: string;
    expiresAt: Date;
  } | null>;
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: SourceData) =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/**
 * SHA-256 (and HMAC-SHA-256 given a secret) for the SigV4 check, from Node's native crypto. The
 * browser's pure-JavaScript one costs the gateway more than the rest of checking a signature, on
 * every call; both give the same bytes, so signatures the browser makes still match.
 */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(this.secret));
  }
  update(data: SourceData) {
    this.hash.update(bytesOf(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

/** Signing keys by secret, day, region and service: derived once (four HMACs), as the key depends on nothing else. */
const signingKeys = new Map<string, Buffer>();
const SIGNING_KEYS_KEPT = 10_000;

function signingKey(secretAccessKey: string, shortDate: string, region: string, service: string) {
  const id = [secretAccessKey, shortDate, region, service].join('\n');
  let key = signingKeys.get(id);
  if (!key) {
    key = [shortDate, region, service, 'aws4_request'].reduce(
      (derived, part) => createHmac('sha256', derived).update(part).digest(),
      Buffer.from(`AWS4${secretAccessKey}`),
    );
    // The oldest first: a Map iterates in insertion order.
    if (signingKeys.size >= SIGNING_KEYS_KEPT) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(id, key);
  }
  return key;
}

type SignedRequest = Parameters<SignatureV4['createCanonicalRequest']>[0];

/**
 * The signature a request should carry: the library's canonical request, as its signer makes it, hashed into the
 * string to sign and signed with the kept signing key. The library's signer keeps the keys of 50 callers and
 * derives the key again (five HMACs) on every call beyond that: 5 % of a gateway process's time with 200 callers.
 * Around the canonical request, the signer's own steps cost a gateway process more than the hashing (issue 32,
 * `npm run load`: 4-6 % of its CPU): a copy of the request to remove the headers a signer generates (here the
 * request is the check's own, built from the signed headers), the date formatted again from the ISO text, the
 * canonical request's hash awaited through a promise and written out in hex by a loop. Here they are the same
 * steps on Node's crypto; the canonical request and its headers stay the library's.
 */
class SignatureCheck extends SignatureV4 {
  constructor() {
    super({ credentials: { accessKeyId: '', secretAccessKey: '' }, region: '', service: '', sha256: NodeSha256 });
  }

  expected(
    signed: SignedRequest,
    key: { signingDate: Date; payloadHash: string; region: string; service: string; secretAccessKey: string },
    sessionToken: string,
  ) {
    // As the signer's signRequest: the generated headers are its own, the body's hash is signed as a header.
    const { headers } = signed;
    for (const name of Object.keys(headers)) {
      if (GENERATED_HEADERS.includes(name.toLowerCase())) delete headers[name];
    }
    // The signer's formatDate: the ISO 8601 text of the date without its milliseconds and separators.
    const longDate = key.signingDate
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/[-:]/g, '');
    const shortDate = longDate.slice(0, 8);
    headers[AMZ_DATE_HEADER] = longDate;
    if (sessionToken) headers[TOKEN_HEADER] = sessionToken;
    if (!hasHeader(SHA256_HEADER, headers)) headers[SHA256_HEADER] = key.payloadHash;
    const canonical = this.createCanonicalRequest(signed, getCanonicalHeaders(signed), key.payloadHash);
    const scope = createScope(shortDate, key.region, key.service);
    // The signer's createStringToSign: the canonical request's SHA-256 (of its UTF-8 bytes) in hex.
    const toSign = `${ALGORITHM_IDENTIFIER}\n${longDate}\n${scope}\n${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
    return createHmac('sha256', signingKey(key.secretAccessKey, shortDate, key.region, key.service))
      .update(toSign)
      .digest('hex');
  }
}

const signatureCheck = new SignatureCheck();

const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;
/** Requests older or newer than this are replays or clock errors. */
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function parseAmzDate(value: string | undefined): Date | undefined {
  const m = value?.match(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/);
  if (!m) return undefined;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
}

function sameText(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function queryObject(rawUrl: string): { path: string; query: Record<string, string | string[]> } {
  const url = new URL(rawUrl, 'http://gateway.invalid');
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const existing = query[key];
    query[key] = existing === undefined ? value : [...[existing].flat(), value];
  }
  return { path: url.pathname, query };
}

function claimsToCaller(claims: Record<string, unknown>, via: Caller['via']): Caller {
  const groups = Array.isArray(claims['cognito:groups']) ? (claims['cognito:groups'] as string[]) : [];
  return {
    username: String(claims['cognito:username'] ?? claims.username ?? ''),
    email: typeof claims.email === 'string' ? claims.email : undefined,
    familyName: typeof claims.family_name === 'string' ? claims.family_name : undefined,
    groups,
    via,
  };
}

async function verifySigned(request: FastifyRequest, identity: IdentityVerifier, match: RegExpMatchArray) {
  const [, accessKeyId, , region, service, signedHeaders, signature] = match;
  const credentials = await identity.findCredentials(accessKeyId);
  if (!credentials || credentials.expiresAt.getTime() < Date.now()) throw unauthorized();
  const signingDate = parseAmzDate(header(request, 'x-amz-date'));
  if (!signingDate || Math.abs(signingDate.getTime() - Date.now()) > MAX_CLOCK_SKEW_MS) {
    throw unauthorized('Login is expired.');
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) {
    const value = header(request, name);
    if (value === undefined) throw unauthorized();
    headers[name] = value;
  }
  // The signer trusts x-amz-content-sha256 when present, so the body must match it here.
  const bodyHash = createHash('sha256')
    .update(request.rawBody ?? '')
    .digest('hex');
  const declaredHash = headers['x-amz-content-sha256'];
  if (declaredHash !== undefined && !sameText(declaredHash, bodyHash)) {
    throw unauthorized('You have no permission for this request.');
  }
  const { path, query } = queryObject(request.url);
  const expected = await signatureCheck.expected(
    { method: request.method, protocol: 'http:', hostname: headers.host ?? '', path, query, headers },
    { signingDate, payloadHash: bodyHash, region, service, secretAccessKey: credentials.secretAccessKey },
    credentials.sessionToken,
  );
  if (!expected || !sameText(expected, signature)) throw unauthorized('You have no permission for this request.');

  const idToken = header(request, 'x-auth-token');
  if (!idToken) throw unauthorized();
  const claims = await identity.verifyIdToken(idToken).catch(refusedUnlessUnavailable);
  const caller = claimsToCaller(claims, 'sigv4');
  if (caller.username !== credentials.username) throw unauthorized('You have no permission for this request.');
  return { ...caller, expiresAt: earliest(credentials.expiresAt.getTime(), expiryOf(claims)) };
}

/** A token's `exp` claim in ms, if it has one. */
const expiryOf = (claims: Record<string, unknown>) => (typeof claims.exp === 'number' ? claims.exp * 1000 : undefined);

const earliest = (...times: (number | undefined)[]) => {
  const known = times.filter((time): time is number => time !== undefined);
  return known.length ? Math.min(...known) : undefined;
};

/** A token that fails verification is refused; a database outage while verifying is not the caller's fault. */
function refusedUnlessUnavailable(error: unknown): never {
  if (error instanceof DatabaseUnavailableError) throw error;
  throw unauthorized();
}

/**
 * Establishes who is calling a webtool/ route: either an identity-pool SigV4 signature plus the id
 * token in x-auth-token, or (single sign-on) `Authorization: <access token>,<id token>`.
 */
export async function authenticate(request: FastifyRequest, identity: IdentityVerifier): Promise<Caller> {
  const authorization = header(request, 'authorization');
  if (!authorization) throw unauthorized();
  const signed = authorization.match(SIGV4);
  if (signed) return verifySigned(request, identity, signed);

  const pair = authorization.split(',');
  if (pair.length !== 2) throw unauthorized();
  const [access, id] = pair.map((part) => part.trim());
  const [accessClaims, idClaims] = await Promise.all([
    identity.verifyAccessToken(access),
    identity.verifyIdToken(id),
  ]).catch(refusedUnlessUnavailable);
  if (accessClaims.sub !== idClaims.sub) throw unauthorized();
  return { ...claimsToCaller(idClaims, 'sso'), expiresAt: earliest(expiryOf(accessClaims), expiryOf(idClaims)) };
}

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    caller?: Caller;
  }
}
