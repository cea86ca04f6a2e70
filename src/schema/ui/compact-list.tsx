import { useMemo, type ReactElement, type ReactNode } from 'react';
import { LinearProgress, List, ListItemButton, ListItemText, useMediaQuery } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import {
  RecordContextProvider,
  useCreatePath,
  useResourceDefinitions,
  useI18nProvider,
  useListContext,
  useTranslate,
} from 'react-admin';
import type { FieldModel, ResourceModel } from '../resource-model.ts';
import { cellContext, columnPlan } from './schema-columns.tsx';
import { useRecordName } from './representation.tsx';

/** Phones and narrow windows: a table of many columns there is a strip of scrolling cells. */
export const COMPACT_LIST_QUERY = '(max-width:600px)';

export function useCompactList() {
  return useMediaQuery(COMPACT_LIST_QUERY, { noSsr: true });
}

/** How many fields each row shows under the record's name. */
const KEY_FIELDS = 3;

/**
 * The first columns of the list that read well as a short line: not the name (the row's title),
 * nor the link column (the row itself opens the record).
 */
function keyFields(model: ResourceModel, fields: readonly FieldModel[]): FieldModel[] {
  return fields
    .filter(
      (field) =>
        field.source !== model.representation &&
        field.column.type !== 'link' &&
        // A list of values reads as its badges (a hardware unit's); other arrays would be raw lists.
        (field.type !== 'array' || (field.column.type === 'array_with_badges' && field.lookup?.source)) &&
        field.type !== 'object' &&
        field.column.type !== 'images' &&
        field.column.type !== 'expandable',
    )
    .slice(0, KEY_FIELDS);
}

/**
 * The list on a small screen: one row per record with its name (the resource's representation)
 * and a few key fields, each row opening the record. Inside the list's context and its
 * LookupColumns, so reference and lookup names come from the same page-wide requests as the table.
 */
export function CompactList({
  model,
  fields,
  empty,
}: {
  model: ResourceModel;
  fields: readonly FieldModel[];
  empty: ReactElement;
}) {
  const { data, isPending } = useListContext();
  const translate = useTranslate();
  const locale = useI18nProvider().getLocale();
  const createPath = useCreatePath();
  const represent = useRecordName(model);
  const shown = useMemo(() => keyFields(model, fields), [model, fields]);
  // A read-only resource's record opens on its show page (a notification, a webhook event).
  const definition = useResourceDefinitions()[model.name];
  const opens = definition && !definition.hasEdit && definition.hasShow ? 'show' : 'edit';
  const cells = useMemo(() => {
    const context = cellContext(translate, locale, (id) => createPath({ resource: model.name, id, type: 'edit' }));
    return shown.map((field) => ({ field, render: columnPlan(field, context) }));
  }, [shown, translate, locale, createPath, model.name]);

  if (isPending) return <LinearProgress aria-label={translate('ra.page.loading')} />;
  if (!data?.length) return empty;
  const label = (field: FieldModel) =>
    translate('table.field_label', {
      label: translate(`resources.${model.name}.fields.${field.source}`, { _: field.source }),
    });
  return (
    <List dense disablePadding aria-label={translate(`resources.${model.name}.name`, { smart_count: 2 })}>
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <ListItemButton
            component={RouterLink}
            to={createPath({ resource: model.name, id: record.id, type: opens })}
            divider
          >
            <ListItemText
              primary={represent(record)}
              secondary={cells.map(({ field, render }) => (
                <KeyValue key={field.source} label={label(field)}>
                  {render(record)}
                </KeyValue>
              ))}
              slotProps={{ secondary: { component: 'span' } }}
              sx={{ overflowWrap: 'anywhere' }}
            />
          </ListItemButton>
        </RecordContextProvider>
      ))}
    </List>
  );
}

function KeyValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span style={{ display: 'block' }}>
      {label} {children}
    </span>
  );
}
