import { bodyParams } from './params.ts';

/** Whether a field holds a value: neither absent, null nor the empty text. */
export const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Whether a field was given at all: neither absent nor null (the empty text counts as given). */
export const isGiven = (value: unknown) => value !== undefined && value !== null;

const versionParams = bodyParams({
  version: { schema: { type: 'integer' }, refusal: 'gateway.version_required', optional: true },
});

/**
 * The `version` a body names for the record it changes: absent (no check of the record's version)
 * or a whole number, else 400 `gateway.version_required`. A stale one is the write pipeline's 409.
 */
export const optionalVersion = (body: Record<string, unknown>): number | undefined => versionParams(body).version;
