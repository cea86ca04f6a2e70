import type { Format } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats';
import { sharedFormats } from './formats.ts';

/**
 * The one module the standalone validators (src/types/generated/validators.ts) import, and the
 * only place createAjv takes formats and keyword functions from: the validators compiled at run
 * time (gateway) and the ones generated at build time (browser) share every rule.
 */

export { countWithinMessage } from './count-within.ts';
export { defaultDescriptionMessage } from './default-description.ts';
export { phoneCountryMessage } from './phone.ts';
export { timeAfterMessage } from './time-after.ts';
export { notBeforeMessage } from './not-before.ts';

/** Standard formats taken from ajv-formats; `email` and `time` are ours (src/schema/validators/formats.ts). */
const standardFormats = ['date', 'date-time', 'uri', 'uuid'] as const;

export const formats: Record<string, Format> = {
  ...Object.fromEntries(standardFormats.map((name) => [name, fullFormats[name]])),
  ...sharedFormats,
};
