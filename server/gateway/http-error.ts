import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DATABASE_UNAVAILABLE, type ErrorBody } from '../../src/contract/errors.ts';

/** An error the gateway answers with its own status and JSON body instead of a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { success: false, message: this.message, ...this.details };
  }
}

export const unauthorized = (message = 'Login is expired.') => new HttpError(401, message);
/** A 400 named by a locale key (`gateway.*` mostly): see `keyedError`. */
export const badRequest = (key: MessageKey, args?: Record<string, unknown>, details?: Record<string, unknown>) =>
  keyedError(400, key, args, details);
export const notFound = (key: MessageKey = 'http.not_found', args?: Record<string, unknown>) =>
  keyedError(404, key, args);
/** The catalogue's refusal, named so that the app shows it in the user's language. */
export const noPermission = () =>
  new HttpError(403, 'You have no permission for this request.', { message_key: 'http.no_permission' });

/** A locale key of a message the gateway answers with (the app shows it in the user's language). */
export type MessageKey = `${'gateway' | 'catalogue' | 'http' | 'validation' | 'import'}.${string}`;

/** The parsed body of a request whose JSON did not parse. */
export const INVALID_JSON = Object.freeze({ invalidJson: true });

export const databaseUnavailableBody: ErrorBody = {
  success: false,
  message: DATABASE_UNAVAILABLE.message,
  message_key: DATABASE_UNAVAILABLE.messageKey,
  code: DATABASE_UNAVAILABLE.code,
};

type Messages = { [key: string]: string | Messages };
let english: Messages | undefined;

/** The English text of a locale key with its `%{name}` arguments filled in (the app shows the user's language). */
export function englishMessage(key: string, args: Record<string, unknown> = {}): string {
  const file = new URL('../../locales/en-US.json', import.meta.url);
  english ??= JSON.parse(
    readFileSync(file.protocol === 'file:' ? file : path.resolve('locales/en-US.json'), 'utf8'),
  ) as Messages;
  let found: string | Messages | undefined = english;
  for (const part of key.split('.')) found = typeof found === 'object' ? found[part] : undefined;
  if (typeof found !== 'string') throw new Error(`A gateway message names no English text: ${key}`);
  return found.replace(/%\{(\w+)\}/g, (_, name: string) => String(args[name] ?? ''));
}

/**
 * A refusal named by a locale key (`gateway.*`, `catalogue.*`, `validation.*`): the body carries `message_key`
 * and `args`, which the app translates (src/dataProvider/http-errors.ts), and the English text as `message`
 * for other callers of the API. tests/unit/gateway-messages.test.ts checks every key has both languages.
 */
export function keyedError(
  status: number,
  key: MessageKey,
  args?: Record<string, unknown>,
  details: Record<string, unknown> = {},
): HttpError {
  return new HttpError(status, englishMessage(key, args), { message_key: key, ...(args && { args }), ...details });
}
