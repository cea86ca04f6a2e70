import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Form } from 'react-admin';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';
import type { FieldModel } from '../../src/schema/resource-model.ts';
import { SchemaInput } from '../../src/schema/ui/schema-inputs.tsx';
import { asDate, storedValue } from '../../src/schema/ui/date-time-pickers.tsx';
import { loadFrenchComponents } from '../../src/schema/ui/component-locales.ts';

// The app's i18n provider loads them with the French messages (tests/unit/i18n-provider.test.ts).
beforeAll(() => loadFrenchComponents());
afterEach(cleanup);

function field(source: string, format: string): FieldModel {
  return {
    source,
    type: 'string',
    required: false,
    readOnly: false,
    format,
    column: { type: 'text', hide: false, ignorexport: false, index: 0 },
    input: {},
  };
}

function renderInput(locale: string, model: FieldModel, record: Record<string, unknown>) {
  renderInAdmin(
    <Form record={record}>
      <SchemaInput field={model} mode="edit" />
    </Form>,
    { i18nProvider: i18nProviderIn(locale) },
  );
}

/** Opens the picker's calendar and returns it. */
async function openCalendar(buttonName: RegExp) {
  fireEvent.click(await screen.findByRole('button', { name: buttonName }));
  return screen.findByRole('grid');
}

describe('the date picker of a schema date field', () => {
  it('names months and days in French when the app is in French', async () => {
    renderInput('fr-FR', field('deadline', 'date-dmy'), { deadline: '15-11-2026' });
    const calendar = await openCalendar(/^Choisir la date/);
    expect(screen.getByText(/novembre 2026/i)).toBeTruthy();
    const dayNames = within(calendar)
      .getAllByRole('columnheader')
      .map((header) => header.getAttribute('aria-label'));
    expect(dayNames).toEqual(['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche']);
  });

  it('names months and days in English when the app is in English', async () => {
    renderInput('en-US', field('deadline', 'date-dmy'), { deadline: '15-11-2026' });
    const calendar = await openCalendar(/^Choose date/);
    expect(screen.getByText(/November 2026/)).toBeTruthy();
    const dayNames = within(calendar)
      .getAllByRole('columnheader')
      .map((header) => header.getAttribute('aria-label'));
    expect(dayNames[0]).toBe('Sunday');
  });

  it('marks a required date once, not "Deadline * *"', async () => {
    renderInput('en-US', { ...field('deadline', 'date'), required: true }, { deadline: '2026-11-15' });
    await screen.findByRole('button', { name: /^Choose date/ });
    const label = document.querySelector('label')!;
    expect(label.textContent?.replace(/\s/g, '')).toBe('Deadline*');
  });
});

describe('the time picker of a schema time field', () => {
  it('offers every half hour of the day, 48 entries, on a computer with a mouse', async () => {
    const matchMedia = window.matchMedia;
    // MUI shows the desktop picker where the pointer is fine (a mouse); jsdom has no media queries.
    window.matchMedia = (query: string) =>
      ({
        matches: query.includes('pointer: fine'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
      }) as unknown as MediaQueryList;
    try {
      renderInput('fr-FR', field('opens_at', 'time'), { opens_at: '07:30' });
      fireEvent.click(await screen.findByRole('button', { name: /^Choisir l'heure/ }));
      const entries = within(await screen.findByRole('listbox')).getAllByRole('option');
      expect(entries).toHaveLength(48);
      expect(entries.slice(0, 3).map((entry) => entry.textContent)).toEqual(['00:00', '00:30', '01:00']);
      expect(entries[47].textContent).toBe('23:30');
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});

describe('the stored values of the date and time inputs', () => {
  it('keep the schema formats', () => {
    expect(storedValue(asDate('15-11-2026', 'date-dmy'), 'date-dmy')).toBe('15-11-2026');
    expect(storedValue(asDate('2026-11-15', 'date'), 'date')).toBe('2026-11-15');
    expect(storedValue(asDate('07:30', 'time'), 'time')).toBe('07:30');
    expect(storedValue(asDate('07:30:00', 'time'), 'time')).toBe('07:30');
    expect(storedValue(asDate('2026-11-15T07:30:00.000Z', 'date-time'), 'date-time')).toBe('2026-11-15T07:30:00.000Z');
    expect(storedValue(null, 'time')).toBeNull();
  });

  it('keep a half-typed value, so that the format rule explains it', () => {
    expect(storedValue(new Date(Number.NaN), 'time')).toBe('Invalid Date');
  });
});
