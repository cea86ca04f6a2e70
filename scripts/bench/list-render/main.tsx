import { createRoot } from 'react-dom/client';
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { AdminContext, memoryStore, ResourceContextProvider, type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import enUS from '../../../locales/en-US.json';
import { modelOf } from '../../../src/schema/ui/registry.ts';
import { SchemaList } from '../../../src/schema/ui/schema-list.tsx';
import { locationOwners, servicePoints } from '../service-points.ts';
import type { BenchList, RenderKind } from './protocol.ts';

/**
 * The lists measured, each at the largest page size the spec names for it (spec 02 §9): service
 * points at 500 rows, a partner list (location owners) at its 300.
 */
const lists: Record<BenchList, { schemaId: string; rows: Record<string, unknown>[]; id: string }> = {
  'service-points': { schemaId: 'service-point', rows: servicePoints(500), id: 'service_point_id' },
  'location-owners': { schemaId: 'location-owner', rows: locationOwners(300), id: 'location_owner_id' },
};
const wanted = (new URLSearchParams(window.location.search).get('list') ?? 'service-points') as BenchList;
const chosen = lists[wanted];
const ROWS = chosen.rows.length;
const model = { ...modelOf(chosen.schemaId), pageSize: ROWS };
const rows = chosen.rows.map((row) => ({ ...row, id: row[chosen.id] as number }));
/** The columns the engine shows by default, in its order: the plain table shows the same. */
const columns = model.fields.filter((field) => !field.column.hide).map((field) => field.source);
const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...enUS }), 'en-US');

/** In memory and already resolved, so the time is rendering, not fetching. */
const dataProvider = {
  getList: async () => ({ data: rows, total: rows.length }),
  getOne: async () => ({ data: rows[0] }),
  getMany: async () => ({ data: [] }),
  getManyReference: async () => ({ data: [], total: 0 }),
  create: async () => ({ data: rows[0] }),
  update: async () => ({ data: rows[0] }),
  updateMany: async () => ({ data: [] }),
  delete: async () => ({ data: rows[0] }),
  deleteMany: async () => ({ data: [] }),
  // Lookup lists (x-lookup.source), as the gateway client answers them.
  call: async () => ({ data: [1, 2, 3, 4, 5, 6, 7].map((id) => ({ column_id: id, column_name: `Type ${id}` })) }),
} as unknown as DataProvider;

function EngineList() {
  return (
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
      <ResourceContextProvider value={model.name}>
        <SchemaList model={model} canCreate={false} />
      </ResourceContextProvider>
    </AdminContext>
  );
}

function PlainTable() {
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          {columns.map((source) => (
            <TableCell key={source}>{source}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id}>
            {columns.map((source) => (
              <TableCell key={source}>{String(row[source as keyof typeof row] ?? '')}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Milliseconds from mounting into an empty element until its last body row has been painted. */
async function render(kind: RenderKind): Promise<number> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const rendered = new Promise<void>((resolve) => {
    const done = () => container.querySelectorAll('tbody tr').length >= ROWS;
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(container, { childList: true, subtree: true });
  });
  const start = performance.now();
  root.render(kind === 'engine' ? <EngineList /> : <PlainTable />);
  await rendered;
  await afterPaint();
  const took = performance.now() - start;
  root.unmount();
  container.remove();
  await afterPaint();
  return took;
}

Object.assign(window, { benchRender: render, benchColumns: columns.length, benchRows: ROWS });
