import { memo, useMemo, type ReactElement, type ReactNode } from 'react';
import {
  LinearProgress,
  styled,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
} from '@mui/material';
import { useHref, useNavigate } from 'react-router-dom';
import {
  RecordContextProvider,
  useCreatePath,
  useI18nProvider,
  useListContext,
  useResourceContext,
  useResourceDefinition,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { FieldModel, ResourceModel } from '../resource-model.ts';
import {
  cellContext,
  CellLinkFollow,
  columnPlan,
  RECORD_LINK_CLASS,
  useLookupCells,
  type CellContext,
  type CellRenderer,
} from './schema-columns.tsx';
import { SelectAllCell, SelectRowCell, type BulkActions } from './bulk-actions.tsx';
import { BADGE_CLASS, BADGE_STYLE, BADGES_CLASS } from './status-badge.tsx';

type Cell = readonly [source: string, render: CellRenderer];

/** Rows open their record on click; the link column gives the same with the keyboard. */
const ClickableBody = styled(TableBody)(({ theme }) => ({
  '& > tr': { cursor: 'pointer' },
  // The cells' plain links and badges (CellContext.follow), styled once here rather than per cell.
  [`& a.${RECORD_LINK_CLASS}`]: { color: theme.palette.primary.main },
  [`& .${BADGE_CLASS}`]: BADGE_STYLE,
  [`& .${BADGES_CLASS}`]: { display: 'flex', flexWrap: 'wrap', gap: theme.spacing(0.5) },
}));

const SchemaRow = memo(function SchemaRow({
  record,
  cells,
  onOpen,
  bulk,
}: {
  record: RaRecord;
  cells: readonly Cell[];
  onOpen?: (id: Identifier) => void;
  bulk?: BulkActions;
}) {
  return (
    <RecordContextProvider value={record}>
      <TableRow hover onClick={onOpen && (() => onOpen(record.id))}>
        {bulk && <SelectRowCell bulk={bulk} record={record} />}
        {cells.map(([source, render]) => (
          <TableCell key={source}>{render(record) as ReactNode}</TableCell>
        ))}
      </TableRow>
    </RecordContextProvider>
  );
});

/**
 * The list's table: one header and the page's rows from the list context, cells from the schema's
 * column types. Hand-rolled rather than react-admin's Datagrid, whose per-row and per-cell machinery
 * (selection, expansion, memo checks) cost about three times a plain table on a 500-row page.
 */
export function SchemaTable({
  model,
  fields,
  empty,
  bulk,
}: {
  model: ResourceModel;
  fields: readonly FieldModel[];
  empty: ReactElement;
  /** The resource's bulk actions: a checkbox column (see bulk-actions.tsx). */
  bulk?: BulkActions;
}) {
  const { data, isPending, sort, setSort } = useListContext();
  const resource = useResourceContext() ?? model.name;
  const { hasEdit, hasShow } = useResourceDefinition({ resource });
  const translate = useTranslate();
  const locale = useI18nProvider().getLocale();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  // A read-only resource (no edit page, such as shipments) opens its records' read-only view.
  const pageType = hasEdit ? 'edit' : hasShow ? 'show' : undefined;
  // The app's address of a path (`/` in a browser router, `#/` in a hash router, with any basename).
  const root = useHref('/').replace(/\/$/, '');
  const follow = useMemo<CellContext['follow']>(
    () => ({
      href: (path) => root + path,
      click(event, path) {
        event.stopPropagation();
        // A new tab or window, or a download, stays the browser's.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(path);
      },
    }),
    [root, navigate],
  );
  // The lookup lists' names arrive after the first rows: the cells are planned again then.
  const lookups = useLookupCells();
  const cells = useMemo<Cell[]>(() => {
    const context: CellContext = {
      ...cellContext(translate, locale, (id: Identifier) => createPath({ resource, id, type: pageType ?? 'edit' })),
      follow,
      lookups,
      recordPath: (target, id) => createPath({ resource: target, id, type: 'edit' }),
    };
    return fields.map((field) => [field.source, columnPlan(field, context)]);
  }, [fields, translate, locale, createPath, resource, pageType, follow, lookups]);
  const open = useMemo(
    () => (pageType ? (id: Identifier) => navigate(createPath({ resource, id, type: pageType })) : undefined),
    [pageType, navigate, createPath, resource],
  );

  if (isPending) return <LinearProgress aria-label={translate('ra.page.loading')} />;
  if (!data?.length) return empty;
  const label = (field: FieldModel) => translate(`resources.${model.name}.fields.${field.source}`, { _: field.source });
  const sortBy = (field: FieldModel) =>
    setSort({
      field: field.source,
      order: sort.field === field.source && sort.order === 'ASC' ? 'DESC' : 'ASC',
    });

  // A wide table scrolls in its own box: the page, and the list's toolbar with it, stay in view.
  return (
    <TableContainer>
      <Table size="small">
        <TableHead>
          <TableRow>
            {bulk && <SelectAllCell bulk={bulk} data={data} />}
            {fields.map((field) => {
              const active = sort.field === field.source;
              const direction = active && sort.order === 'DESC' ? 'desc' : 'asc';
              return (
                <TableCell key={field.source} sortDirection={active ? direction : false}>
                  {field.type === 'array' ? (
                    label(field)
                  ) : (
                    <TableSortLabel active={active} direction={direction} onClick={() => sortBy(field)}>
                      {label(field)}
                    </TableSortLabel>
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <CellLinkFollow.Provider value={follow}>
          <ClickableBody>
            {data.map((record) => (
              <SchemaRow key={record.id} record={record} cells={cells} onOpen={open} bulk={bulk} />
            ))}
          </ClickableBody>
        </CellLinkFollow.Provider>
      </Table>
    </TableContainer>
  );
}
