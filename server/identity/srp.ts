/**
 * SRP-6a as Cognito and aws-amplify compute it, on native BigInt. Pure: no I/O, no clock.
 *
 * Hex encodings matter as much as the numbers: Amplify hashes the two's-complement hex of each
 * value (a leading "00" when the top bit is set), so every hash input here goes through padHex.
 */
import { createDiffieHellman, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** The 3072-bit group of RFC 5054. */
export const N = BigInt(
  '0x' +
    'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
    'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
    'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
    '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
    'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
    '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
    'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
    'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
export const g = 2n;

/** Even-length hex of a non-negative integer, with "00" prepended when the top bit is set. */
export function padHex(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return /^[89a-f]/.test(hex) ? `00${hex}` : hex;
}

export function hexToBigInt(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hash of the bytes a hex string encodes. */
function hashHex(hex: string): string {
  return sha256Hex(Buffer.from(hex, 'hex'));
}

export const k = hexToBigInt(hashHex(padHex(N) + padHex(g)));

/**
 * g^exponent mod N through OpenSSL's Diffie-Hellman, several times faster than BigInt squaring:
 * it is what makes seeding hundreds of users take seconds.
 */
export function powG(exponent: bigint): bigint {
  const dh = createDiffieHellman(Buffer.from(padHex(N), 'hex'), Buffer.from([Number(g)]));
  dh.setPrivateKey(Buffer.from(padHex(exponent), 'hex'));
  return hexToBigInt(dh.generateKeys('hex'));
}

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = ((base % modulus) + modulus) % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

/** The private value x = H(salt | H(poolName | username | ":" | password)). */
export function computeX(poolName: string, username: string, password: string, salt: string): bigint {
  const identityHash = sha256Hex(`${poolName}${username}:${password}`);
  return hexToBigInt(hashHex(padHex(hexToBigInt(salt)) + identityHash));
}

export function computeVerifier(poolName: string, username: string, password: string, salt: string): string {
  return padHex(powG(computeX(poolName, username, password, salt)));
}

export interface PasswordVerifier {
  /** Hex. */
  salt: string;
  /** Hex of g^x mod N. */
  verifier: string;
}

/** A fresh salt and its verifier: what the user store keeps instead of a password. */
export function createPasswordVerifier(poolName: string, username: string, password: string): PasswordVerifier {
  const salt = randomBytes(16).toString('hex');
  return { salt, verifier: computeVerifier(poolName, username, password, salt) };
}

export function computeU(A: bigint, B: bigint): bigint {
  return hexToBigInt(hashHex(padHex(A) + padHex(B)));
}

export interface ServerEphemeral {
  /** Secret b, hex. */
  b: string;
  /** Public B = k*v + g^b mod N, hex (unpadded, as Cognito sends SRP_B). */
  B: string;
}

export function createServerEphemeral(verifier: string): ServerEphemeral {
  const v = hexToBigInt(verifier);
  for (;;) {
    const b = hexToBigInt(randomBytes(128).toString('hex'));
    const B = (k * v + powG(b)) % N;
    if (B !== 0n) return { b: b.toString(16), B: B.toString(16) };
  }
}

/** HKDF-SHA256 of S with salt u and info 'Caldera Derived Key', 16 bytes, as Amplify derives it. */
export function passwordAuthenticationKey(S: bigint, u: bigint): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(padHex(S), 'hex'), Buffer.from(padHex(u), 'hex'), 'Caldera Derived Key', 16),
  );
}

/** Base64 HMAC over poolName | userId | secret block bytes | timestamp: the PASSWORD_CLAIM_SIGNATURE. */
export function claimSignature(
  key: Uint8Array,
  poolName: string,
  userId: string,
  secretBlock: string,
  timestamp: string,
): string {
  return createHmac('sha256', key)
    .update(poolName)
    .update(userId)
    .update(Buffer.from(secretBlock, 'base64'))
    .update(timestamp)
    .digest('base64');
}

export interface PasswordClaim {
  poolName: string;
  /** USER_ID_FOR_SRP: the real username the verifier was computed with. */
  userId: string;
  verifier: string;
  /** Client public value, hex. */
  A: string;
  /** Server ephemeral of this attempt, hex. */
  b: string;
  B: string;
  secretBlock: string;
  timestamp: string;
  signature: string;
}

/** True when the client proved knowledge of the password behind `verifier`. */
export function verifyPasswordClaim(claim: PasswordClaim): boolean {
  const A = hexToBigInt(claim.A);
  const B = hexToBigInt(claim.B);
  if (A % N === 0n) return false;
  const u = computeU(A, B);
  if (u === 0n) return false;
  const v = hexToBigInt(claim.verifier);
  const S = modPow(A * modPow(v, u, N), hexToBigInt(claim.b), N);
  const expected = Buffer.from(
    claimSignature(passwordAuthenticationKey(S, u), claim.poolName, claim.userId, claim.secretBlock, claim.timestamp),
    'base64',
  );
  const given = Buffer.from(claim.signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function isHex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-fA-F]{1,2048}$/.test(value);
}
