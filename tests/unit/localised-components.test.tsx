import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import { LocalisedComponents } from '../../src/app/localised-components.tsx';
import { useLocalPages } from '../../src/schema/ui/local-pages.tsx';
import { loadFrenchComponents } from '../../src/schema/ui/component-locales.ts';

function Pager() {
  const { pagination } = useLocalPages(
    Array.from({ length: 41 }, (_, index) => index),
    25,
  );
  return pagination;
}

function renderIn(locale: string) {
  const i18nProvider = polyglotI18nProvider(
    (language) => (language === 'fr-FR' ? { ...frenchMessages, ...fr } : { ...englishMessages, ...en }),
    locale,
  );
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <LocalisedComponents>
        <Pager />
      </LocalisedComponents>
    </AdminContext>,
  );
}

// The app's i18n provider loads them with the French messages (tests/unit/i18n-provider.test.ts).
beforeAll(() => loadFrenchComponents());
afterEach(cleanup);

describe("MUI's own texts", () => {
  it('are French when the app is in French', () => {
    renderIn('fr-FR');
    expect(screen.getByRole('button', { name: 'Aller à la page suivante' })).toBeTruthy();
    expect(screen.getByText(/1–25 sur 41/)).toBeTruthy();
  });

  it('are English when the app is in English', () => {
    renderIn('en-US');
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeTruthy();
    expect(screen.getByText(/1–25 of 41/)).toBeTruthy();
  });
});
