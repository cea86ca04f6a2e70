import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import Papa from 'papaparse';

/**
 * One page object for the journeys: a schema list (`listOf(page)`) and a schema form (`formOf(page)`)
 * as a person uses them, by visible labels, and `listUrl` for a list opened already filtered.
 */

/** What a list's address may carry besides its path (react-admin's list query). */
export interface ListQuery {
  /** The list's filter, as its filter form writes it. */
  filter?: Record<string, unknown>;
  perPage?: number;
  sort?: string;
  order?: 'ASC' | 'DESC';
}

/** The address of a list opened with that query: `listUrl('/tickets', { filter: { status: 1 }, perPage: 500 })`. */
export function listUrl(path: string, query: ListQuery = {}): string {
  const parts: string[] = [];
  if (query.filter) parts.push(`filter=${encodeURIComponent(JSON.stringify(query.filter))}`);
  if (query.perPage !== undefined) parts.push(`perPage=${query.perPage}`);
  if (query.sort !== undefined) parts.push(`sort=${encodeURIComponent(query.sort)}`);
  if (query.order !== undefined) parts.push(`order=${query.order}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** A select (a filter's or an input's) by its label, and the option picked in it. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The filter the list's address carries (react-admin writes it there once it applies it). */
const filterInUrl = (page: Page) => new URL(page.url()).searchParams.get('filter') ?? '';

/**
 * Runs a filter change and waits until the list has applied it: the filter bar applies a change half a
 * second later (react-admin's debounce), and a row clicked before that is a row of the list as it was;
 * the late change then takes the browser back to the list. The rows a journey reads next are the new ones.
 */
async function applied(page: Page, change: () => Promise<void>) {
  const before = filterInUrl(page);
  await change();
  await expect.poll(() => filterInUrl(page), { message: 'the list applies the filter' }).not.toBe(before);
}

/** The schema list shown on the page: its filters, rows, columns, sort, page size and export. */
export function listOf(page: Page) {
  const rows = page.locator('tbody tr');
  /** A column header by its visible label (its accessible name is the sort button's). */
  const columnHeader = (label: string) => page.locator('thead th').filter({ hasText: new RegExp(`^${label}$`) });
  /** A filter by its label. */
  const filter = (label: string | RegExp) => page.getByRole('combobox', { name: label });

  return {
    rows,
    columnHeader,
    filter,
    /** The values of one column on the page, by its header label, once the table has drawn its rows and that column. */
    async columnValues(label: string) {
      await expect(rows.first().or(page.getByText('No record found.'))).toBeVisible();
      const headerIndex = async () => (await page.locator('thead th').allTextContents()).indexOf(label);
      await expect.poll(headerIndex, { message: label }).toBeGreaterThanOrEqual(0);
      const index = await headerIndex();
      return page.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents();
    },
    /** The list's total, from the pager's '1–15 of 2400'. */
    async total() {
      const text = (await page.locator('.MuiTablePagination-displayedRows').textContent()) ?? '';
      return Number(/of\s+(\d+)/.exec(text)?.[1]);
    },
    /** Picks an option of a filter shown in the list's filter bar, and waits until the list has applied it. */
    choose: (label: string | RegExp, option: string) => applied(page, () => choose(page, filter(label), option)),
    /** Shows the list's filter of that label (More filters), picks the option and waits until the list has applied it. */
    async addFilter(label: string, option: string, select: Locator = filter(label)) {
      await page.getByRole('button', { name: 'More filters' }).click();
      await page.getByRole('menuitemcheckbox', { name: label }).click();
      await applied(page, () => choose(page, select, option));
    },
    /** Sorts by a column: its header's sort button (once more for the other direction). */
    async sortBy(label: string) {
      await columnHeader(label).getByRole('button').first().click();
    },
    /** The pager's rows per page select. */
    pageSize: () => page.getByRole('combobox', { name: /rows per page/i }),
    /** Exports the list (its Export button) and reads the CSV it downloads. */
    async exportCsv() {
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        page.getByRole('button', { name: 'Export' }).click(),
      ]);
      const text = await readFile(await download.path(), 'utf8');
      const [header, ...data] = Papa.parse<string[]>(text.trim()).data;
      return { fileName: download.suggestedFilename(), header, rows: data };
    },
  };
}

/** The schema form shown on the page (create, edit, or a record page's tab): its fields, save and errors. */
export function formOf(page: Page) {
  /** An input by its label, exactly (`Name` is not `Location name`). */
  const field = (label: string) => page.getByLabel(label, { exact: true });
  return {
    field,
    /** Types `value` over the field's content. */
    fill: (label: string, value: string) => field(label).fill(value),
    /** Picks an option of a select of the form. */
    choose: (label: string, option: string) => choose(page, page.getByRole('combobox', { name: label }), option),
    /** Saves the form with its button (`Save` unless named otherwise). */
    save: (name = 'Save') => page.getByRole('button', { name }).click(),
    /** The message under a field (its helper text, which names the error once the field is in error). */
    error(label: string) {
      return page
        .locator('.MuiFormControl-root')
        .filter({ has: field(label) })
        .last()
        .locator('.MuiFormHelperText-root');
    },
  };
}
