import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider } from 'react-admin';
import englishMessages from 'ra-language-english';
import enUS from '../../locales/en-US.json';
import { sessionKeys } from '../authProvider/session-keys.ts';
import type { Translator } from '../custom/account/translation.tsx';
import { loadFrenchComponents } from '../schema/ui/component-locales.ts';

export const locales = [
  { locale: 'en-US', name: 'English' },
  { locale: 'fr-FR', name: 'Français' },
];

/**
 * react-admin's messages under the app's, with the few of react-admin's own buttons that take no label
 * worded by the app: the list's filter button reads "More filters" (issue 24), not "Add filter".
 */
export function withAppWords<R extends { ra: { action: object } }, A extends { table: { more_filters: string } }>(
  reactAdmin: R,
  app: A,
) {
  const ra = { ...reactAdmin.ra, action: { ...reactAdmin.ra.action, add_filter: app.table.more_filters } };
  return { ...reactAdmin, ...app, ra };
}

const english = withAppWords(englishMessages, enUS);

/** Stored choice first, then the browser language, else en-US (spec 01 §1). */
export function initialLocale(): string {
  const stored = localStorage.getItem(sessionKeys.language);
  if (stored && locales.some((l) => l.locale === stored)) return stored;
  return navigator.language?.toLowerCase().startsWith('fr') ? 'fr-FR' : 'en-US';
}

async function loadFrench() {
  const [{ default: frenchMessages }, { default: frFR }] = await Promise.all([
    import('ra-language-french'),
    import('../../locales/fr-FR.json'),
    loadFrenchComponents(),
  ]);
  return withAppWords(frenchMessages, frFR);
}

/**
 * The initial bundle is loaded before the first render; French stays out of the entry chunk. The
 * provider serves react-admin and, as a Translator, the sign-in screens that run without it.
 */
export async function createI18nProvider(): Promise<I18nProvider & Translator> {
  const start = initialLocale();
  const frenchAtStart = start === 'fr-FR' ? await loadFrench() : undefined;
  const provider = polyglotI18nProvider(
    (locale) => {
      if (locale !== 'fr-FR') return english;
      return frenchAtStart ?? loadFrench();
    },
    start,
    locales,
    { allowMissing: false },
  );
  const listeners = new Set<() => void>();
  return {
    ...provider,
    changeLocale: async (locale: string) => {
      localStorage.setItem(sessionKeys.language, locale);
      document.documentElement.lang = locale.slice(0, 2);
      await provider.changeLocale(locale);
      for (const listener of listeners) listener();
    },
    onLocaleChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
