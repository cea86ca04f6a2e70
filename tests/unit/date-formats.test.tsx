import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import { csvDateTime, dateTexts } from '../../src/schema/dates.ts';
import { cellContext, columnPlan } from '../../src/schema/ui/schema-columns.tsx';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { PieceEventsTable } from '../../src/schema/ui/piece-events-table.tsx';
import { renderInAdmin } from './support/admin.tsx';

/*
 * Issue 24.3: one date and one date-time format per language. Dates are collected from what the
 * screens draw (a list's day and moment cells, the piece events table) in both languages; a second
 * shape (ISO, milliseconds, month names, a two-digit year) fails.
 */

const shape = (text: string) => text.replace(/\d/g, '9');
const DATE_LIKE =
  /\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}(?:[ ,T]+\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?|[A-Z][a-z]{2} \d{1,2}, \d{4}/g;

afterEach(cleanup);

describe.each([
  ['en-US', { ...englishMessages, ...en }, '99/99/9999', '99/99/9999 99:99'],
  ['fr-FR', { ...frenchMessages, ...fr }, '99/99/9999', '99/99/9999 99:99'],
] as const)('%s', (locale, messages, day, moment) => {
  it('draws every day and moment in one shape', async () => {
    const translate = polyglotI18nProvider(() => messages, locale).translate;
    const context = cellContext(translate, locale, () => '');
    const ticket = modelOf('ticket');
    const seen: string[] = [];
    for (const source of ['deadline_date', 'sla_date', 'created_at', 'closed_at']) {
      const field = ticket.fields.find((item) => item.source === source)!;
      const cell = columnPlan(
        field,
        context,
      )({
        id: 1,
        deadline_date: '2026-12-01',
        sla_date: '2026-01-31',
        created_at: '2026-11-27T04:40:12.345Z',
        closed_at: '2026-11-28T16:05:00Z',
      });
      seen.push(String(cell));
    }
    const { container } = renderInAdmin(
      <PieceEventsTable
        label="events"
        events={[{ id: 1, event_code: 103, at: '2026-11-27T04:40:12.345Z', actor: 'system' }]}
      />,
      { dataProvider: {} as DataProvider, i18nProvider: polyglotI18nProvider(() => messages, locale) },
    );
    seen.push(container.textContent ?? '');
    const shapes = new Set(seen.flatMap((text) => text.match(DATE_LIKE) ?? []).map(shape));
    expect([...shapes].sort()).toEqual([day, moment].sort());
    expect(dateTexts(locale).dateTime('2026-11-27T04:40:12Z')).toMatch(/^\d{2}\/\d{2}\/2026 \d{2}:\d{2}$/);
  }, 20_000);
});

describe('CSV', () => {
  it('keeps ISO 8601 to the second, without milliseconds', () => {
    expect(csvDateTime('2026-11-27T04:40:12.345Z')).toBe('2026-11-27T04:40:12Z');
    expect(csvDateTime('2026-12-01')).toBe('2026-12-01');
    expect(csvDateTime(null)).toBe('');
  });
});
