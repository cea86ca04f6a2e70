import fc from 'fast-check';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en-US.json';
import fr from '../../../locales/fr-FR.json';
import { createAjv } from '../../../src/schema/ajv.ts';
import { sharedFormats } from '../../../src/schema/validators/formats.ts';
import { validationMessages } from '../../../src/schema/validators/messages.ts';
import { valueErrors } from './support.ts';

// Merged as the app merges them, so that a clash with react-admin's own messages would show.
const locales = { 'en-US': { ...englishMessages, ...en }, 'fr-FR': { ...frenchMessages, ...fr } };
const lookup = (messages: object, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

describe('validation messages', () => {
  it.each(Object.entries(locales))('exist in %s for every key the validators emit', (_, messages) => {
    for (const key of Object.values(validationMessages)) {
      expect(typeof lookup(messages, key), key).toBe('string');
    }
  });

  it.each(Object.entries(locales))('in %s interpolate their arguments', (locale, messages) => {
    const translate = polyglotI18nProvider(() => messages, locale).translate;
    const error = valueErrors({ type: 'string', minLength: 3 }, 'ab').value;
    const text = translate(error.message, error.args);
    expect(text).toContain('3');
    expect(text).not.toContain('%{');
    expect(translate('validation.invalid_phone')).not.toBe('validation.invalid_phone');
  });

  it('use the texts of the spec in English', () => {
    expect(en.validation.required).toBe('This field is required');
    expect(en.validation.email).toBe('Enter a valid email address');
    expect(en.validation.invalid_phone).toBe('Invalid phone number format');
  });
});

describe('shared formats registered in ajv', () => {
  const ajv = createAjv();

  it.each(Object.entries(sharedFormats))('%s gives the same answer in ajv as its function', (format, definition) => {
    if (definition.type === 'string') {
      const validate = ajv.compile({ type: 'string', format });
      fc.assert(fc.property(fc.string(), (value) => validate(value) === definition.validate(value)));
    } else {
      const validate = ajv.compile({ type: 'number', format });
      fc.assert(
        fc.property(
          fc.oneof(fc.integer(), fc.double({ noNaN: true })),
          (value) => validate(value) === definition.validate(value),
        ),
      );
    }
  });
});
