import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import en from '../../locales/en-US.json';
import { renderInAdmin } from './support/admin.tsx';
import { cellContext, columnPlan } from '../../src/schema/ui/schema-columns.tsx';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { RecordTitle } from '../../src/schema/ui/representation.tsx';

afterEach(cleanup);

/** The English locale's text for a key, as react-admin's translate gives it (`_` when missing). */
function translate(key: string, options?: Record<string, unknown>): string {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en);
  return typeof found === 'string' ? found : String(options?._ ?? key);
}

const fieldOf = (schemaId: string, source: string) => modelOf(schemaId).fields.find((f) => f.source === source)!;
const cell = (schemaId: string, source: string, record: Record<string, unknown>) => {
  const plan = columnPlan(
    fieldOf(schemaId, source),
    cellContext(translate, 'en-US', () => ''),
  );
  const full = { id: 1, ...record };
  const shown = renderInAdmin(<div data-testid="cell">{plan(full)}</div>, { record: full }).getByTestId('cell');
  const badges = [...shown.querySelectorAll('span')].filter((span) => !span.querySelector('span'));
  return { text: shown.textContent, badges: badges.map((badge) => badge.textContent) };
};

describe('the engine’s default rendering of arrays and objects (list, compact list, read-only view)', () => {
  it('names the choices of a list of choices (a service point’s delivery days)', () => {
    expect(cell('service-point', 'delivery_days', { delivery_days: [1, 3] }).badges).toEqual([
      translate('choices.weekday.1'),
      translate('choices.weekday.3'),
    ]);
  });

  it('reads a list of objects without a display of its own as label: value pairs, not [object Object]', () => {
    const { text } = cell('service-point', 'carrier_settings', {
      carrier_settings: [{ carrier_id: 2, first_mile: true, expiry_days: 4 }],
    });
    expect(text).not.toContain('[object Object]');
    expect(text).toContain('first mile: Yes');
    expect(text).toContain('expiry days: 4');
  });

  it('reads a role’s permissions (an expandable column of objects) as text too', () => {
    const { text } = cell('role', 'permissions', { permissions: [{ feature_id: 187, has_permission: true }] });
    expect(text).toBe('feature id: 187, has permission: Yes');
  });
});

describe('numbers and days in list cells', () => {
  it('writes a price (x-input.step 0.01) with its two decimals and a day-named record link in the language’s format', () => {
    const text = (schemaId: string, source: string, value: unknown) => {
      const shown = cell(schemaId, source, { [source]: value }).text;
      cleanup();
      return shown;
    };
    expect(text('price-structure', 'unit_price', 5.6)).toBe('5.60');
    expect(text('price-structure', 'unit_price', 12)).toBe('12.00');
    expect(text('price-structure', 'valid_from', '2026-12-01')).toBe('12/01/2026');
    // A count keeps no decimals it does not have.
    expect(text('hardware-unit', 'compartment_fault_count', 7)).toBe('7');
  });
});

describe('a record named by a choice', () => {
  it('is titled by the choice’s name, not its code (a price by its parcel size)', () => {
    const shown = renderInAdmin(
      <div data-testid="title">
        <RecordTitle model={modelOf('price-structure')} page="edit" />
      </div>,
      { record: { id: 20, item: 'return' } },
    ).getByTestId('title');
    expect(shown.textContent).toBe('Price Return (end-user drop-off)');
  });
});
