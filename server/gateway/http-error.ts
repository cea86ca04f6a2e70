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
export const badRequest = (message: string, details?: Record<string, unknown>) => new HttpError(400, message, details);
export const notFound = (message = 'Record not found.') => new HttpError(404, message);
/** The catalogue's refusal, named so that the app shows it in the user's language. */
export const noPermission = () =>
  new HttpError(403, 'You have no permission for this request.', { message_key: 'http.no_permission' });

/** The parsed body of a request whose JSON did not parse. */
export const INVALID_JSON = Object.freeze({ invalidJson: true });

export const databaseUnavailableBody: ErrorBody = {
  success: false,
  message: DATABASE_UNAVAILABLE.message,
  message_key: DATABASE_UNAVAILABLE.messageKey,
  code: DATABASE_UNAVAILABLE.code,
};
