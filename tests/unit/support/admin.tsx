import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import {
  AdminContext,
  RecordContextProvider,
  ResourceContextProvider,
  type AuthProvider,
  type DataProvider,
  type I18nProvider,
  type RaRecord,
} from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import en from '../../../locales/en-US.json';
import fr from '../../../locales/fr-FR.json';

/** react-admin's English words with the app's (locales/en-US.json) over them, as most unit tests read them. */
export const englishI18nProvider: I18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...en }), 'en-US');

/** The app's words in `locale` (French or English, react-admin's under them), switching as the app does. */
export function i18nProviderIn(locale: string): I18nProvider {
  return polyglotI18nProvider(
    (language) => (language === 'fr-FR' ? { ...frenchMessages, ...fr } : { ...englishMessages, ...en }),
    locale,
  );
}

export interface AdminOptions {
  dataProvider?: DataProvider;
  authProvider?: AuthProvider;
  /** English (`englishI18nProvider`) when left out. */
  i18nProvider?: I18nProvider;
  /** The resource context of `ui` (a list's or a record's resource name). */
  resource?: string;
  /** The record context of `ui`, inside the resource's (a new record may have no id yet). */
  record?: object;
}

/**
 * Renders `ui` inside react-admin's `AdminContext` (no layout, no routes of its own), in English unless
 * told otherwise, within the resource and record contexts given: how unit tests draw one component
 * of a screen with the providers it reads.
 */
export function renderInAdmin(ui: ReactElement, options: AdminOptions = {}) {
  const { dataProvider, authProvider, i18nProvider = englishI18nProvider, resource, record } = options;
  let content = ui;
  if (record) content = <RecordContextProvider value={record as RaRecord}>{content}</RecordContextProvider>;
  if (resource) content = <ResourceContextProvider value={resource}>{content}</ResourceContextProvider>;
  return render(
    <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
      {content}
    </AdminContext>,
  );
}
