/**
 * A service error in the shape Cognito answers with. Amplify takes `error.name` from the
 * `x-amzn-errortype` header (falling back to `__type`), so `type` must be a bare exception name.
 */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
    this.name = type;
  }
}

export const notAuthorized = (message: string) => new CognitoError('NotAuthorizedException', message);

export const invalidParameter = (message: string) => new CognitoError('InvalidParameterException', message);

/** Reads a required string member of a request body, failing the way Cognito validation does. */
export function requireString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') {
    throw invalidParameter(
      `1 validation error detected: Value at '${lowerFirst(name)}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return value;
}

/** A string-to-string map member (AuthParameters, ChallengeResponses, Logins), empty when absent. */
export function stringMap(body: Record<string, unknown>, name: string): Record<string, string> {
  const value = body[name];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParameter(`Value at '${lowerFirst(name)}' must be a map of strings.`);
  }
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') result[key] = item;
  }
  return result;
}

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
