/**
 * The gateway's error bodies, as the app reads them. Pure types and constants shared by the gateway
 * (`server/`) and the app: no React, no Node APIs.
 */

/** A field's error as react-admin translates it: a message key plus its interpolation arguments. */
export interface FieldError<Message extends string = string> {
  message: Message;
  args?: Record<string, unknown>;
}

/** Field errors by field name (dotted for nested fields: `permissions.0.feature_id`). */
export type FieldErrors = Record<string, FieldError>;

/** One refused row of a bulk import. */
export interface RowErrors {
  /** Index in the request's `data`. */
  index: number;
  /** The row's line in the file it came from, the header being line 1. */
  line: number;
  errors: FieldErrors;
}

/** The body of every refusal (4xx) and failure (5xx) of the gateway. */
export interface ErrorBody {
  success: false;
  /** English text, for logs and clients without the catalogue. */
  message: string;
  /** The catalogue key the app shows instead of `message`, in the user's language. */
  message_key?: string;
  args?: Record<string, unknown>;
  /** e.g. `STALE_VERSION` on a 409 of an update based on an older version; production also sends numbers (313). */
  code?: string | number;
  /** A 422 of a record: the errors to show under its inputs. */
  errors?: FieldErrors;
  /** A 422 of a bulk import: nothing was written; each refused row with its errors. */
  row_errors?: RowErrors[];
}

/** The 422 message of a record that the schema or a rule refuses. */
export const SAVE_FAILED = 'Save failed, check the fields in error state';

/**
 * The 503 of a request that found the database unreachable, or too slow to answer: nothing was
 * written, and the same request may be sent again after the `Retry-After` header's seconds.
 * The identity stand-in answers it as the Cognito error `identityErrorType`.
 */
export const DATABASE_UNAVAILABLE = {
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  messageKey: 'http.database_unavailable',
  message: 'The database cannot be reached right now. Please try again in a few seconds.',
  identityErrorType: 'ServiceUnavailableException',
  retryAfterSeconds: 5,
} as const;
