import type { ErrorObject } from 'ajv';
import { inputHintOf } from './resource-model.ts';
import { formatError } from './validators/formats.ts';
import { validationMessages } from './validators/messages.ts';
import type { FieldError } from './validators/messages.ts';

/** One ajv error as a form shows it: on which field, with what message, and how much it matters. */
export interface MappedError {
  /** Dotted field path, e.g. `address.address_id` or `descriptions.0.text`; '' is the record. */
  path: string;
  error: FieldError;
  /** When a field has several errors the lowest rank is shown: required, type, format, size. */
  rank: number;
}

const ranks = { required: 0, type: 1, format: 2, size: 3, other: 4 };

export function mapAjvError(ajvError: ErrorObject): MappedError | undefined {
  const { keyword, params, instancePath, parentSchema } = ajvError;
  const here = (error: FieldError, rank: number): MappedError => ({ path: dotted(instancePath), error, rank });
  const limit = (message: FieldError['message'], name: 'min' | 'max') =>
    here({ message, args: { [name]: params.limit } }, ranks.size);

  switch (keyword) {
    case 'if':
      // The failing `then` or `else` branch reports its own, more precise errors.
      return undefined;
    case 'required':
      return {
        path: joinPath(instancePath, params.missingProperty),
        error: {
          message: isTermsInput(parentSchema?.properties?.[params.missingProperty])
            ? validationMessages.termsAccepted
            : validationMessages.required,
        },
        rank: ranks.required,
      };
    case 'type':
      return here({ message: validationMessages.type }, ranks.type);
    case 'format':
      return here(formatError(params.format), ranks.format);
    case 'pattern':
      return here({ message: validationMessages.format }, ranks.format);
    case 'enum':
      return here({ message: validationMessages.choice }, ranks.format);
    case 'const':
      return here({ message: constMessage(ajvError) }, ranks.format);
    case 'dependentRequired':
      // Only addresses use it: a name typed without picking an address from the lookup.
      return here({ message: validationMessages.invalidAddress }, ranks.format);
    case 'x-phone-country':
    case 'x-default-description':
    case 'x-count-within':
    case 'x-time-after':
    case 'x-not-before':
      return here({ message: params.message }, ranks.format);
    case 'minLength':
      return limit(validationMessages.minLength, 'min');
    case 'maxLength':
      return limit(validationMessages.maxLength, 'max');
    case 'minimum':
      return limit(validationMessages.min, 'min');
    case 'maximum':
      return limit(validationMessages.max, 'max');
    case 'exclusiveMinimum':
      return limit(validationMessages.greaterThan, 'min');
    case 'exclusiveMaximum':
      return limit(validationMessages.lessThan, 'max');
    case 'minItems':
      return limit(validationMessages.minItems, 'min');
    case 'maxItems':
      return limit(validationMessages.maxItems, 'max');
    case 'uniqueItems':
      return here({ message: validationMessages.uniqueItems }, ranks.size);
    case 'additionalProperties':
      return {
        ...here({ message: validationMessages.invalid }, ranks.other),
        path: joinPath(instancePath, params.additionalProperty),
      };
    default:
      return here({ message: validationMessages.invalid }, ranks.other);
  }
}

/** `const` says three things in our schemas: "repeat the password", "tick the box", or "this value only". */
function constMessage({ schema, parentSchema }: ErrorObject): FieldError['message'] {
  if (typeof schema === 'object' && schema !== null && '$data' in schema) return validationMessages.matched;
  if (isTermsInput(parentSchema)) return validationMessages.termsAccepted;
  return validationMessages.choice;
}

function isTermsInput(schema: unknown): boolean {
  return inputHintOf(schema).kind === 'terms';
}

function joinPath(instancePath: string, property: string): string {
  return [dotted(instancePath), property].filter(Boolean).join('.');
}

function dotted(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}
