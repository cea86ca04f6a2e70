import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import enUS from '../../locales/en-US.json';
import { loadSchemas } from '../../server/gateway/resource-registry.ts';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import type { Translate } from '../../src/schema/csv-export.ts';

/** The gateway's schema registry: ajv compiled from schemas/ (the browser uses generated code). */
export const registry = createSchemaRegistry(loadSchemas());

export function modelOf(schemaId: string) {
  return registry.model(schemaId);
}

/** The app's English translations, as the export button's `useTranslate` gives them. */
export const translate: Translate = polyglotI18nProvider(() => ({ ...englishMessages, ...enUS }), 'en-US', [], {
  allowMissing: false,
}).translate;
