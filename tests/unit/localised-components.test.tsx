import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { LocalisedComponents } from '../../src/app/localised-components.tsx';
import { useLocalPages } from '../../src/schema/ui/local-pages.tsx';
import { loadFrenchComponents } from '../../src/schema/ui/component-locales.ts';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

function Pager() {
  const { pagination } = useLocalPages(
    Array.from({ length: 41 }, (_, index) => index),
    25,
  );
  return pagination;
}

function renderIn(locale: string) {
  renderInAdmin(
    <LocalisedComponents>
      <Pager />
    </LocalisedComponents>,
    { i18nProvider: i18nProviderIn(locale) },
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
