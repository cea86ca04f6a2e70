import { Checkbox, TableCell, Tooltip } from '@mui/material';
import type { ComponentType, MouseEvent } from 'react';
import { useListContext, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';

/** What a resource's bulk action bar gets: the ids chosen in the list and a way to clear the choice. */
export interface BulkActionBarProps {
  model: ResourceModel;
  selectedIds: Identifier[];
  clear: () => void;
}

/**
 * A resource's bulk actions on its list (`schemaResource(id, { bulkActions })`): rows get a checkbox,
 * at most `max` can be chosen, and a row `unselectable` names a reason for (a locale key) keeps its
 * checkbox disabled with the reason as its tooltip. The bar shows above the table once a row is chosen.
 */
export interface BulkActions {
  bar: ComponentType<BulkActionBarProps>;
  max: number;
  unselectable?: (record: RaRecord) => string | undefined;
}

const stop = (event: MouseEvent) => event.stopPropagation();

/** The header cell: chooses the page's selectable rows, up to the maximum, or clears them. */
export function SelectAllCell({ bulk, data }: { bulk: BulkActions; data: RaRecord[] }) {
  const translate = useTranslate();
  const { selectedIds, onSelect } = useListContext();
  const selectable = data.filter((record) => !bulk.unselectable?.(record)).map((record) => record.id);
  const chosenHere = selectable.filter((id) => selectedIds.includes(id));
  const all = selectable.length > 0 && chosenHere.length === Math.min(selectable.length, bulk.max);
  const toggle = () => {
    if (all) return onSelect(selectedIds.filter((id) => !selectable.includes(id)));
    const others = selectedIds.filter((id) => !selectable.includes(id));
    onSelect([...others, ...selectable].slice(0, Math.max(bulk.max, others.length)));
  };
  return (
    <TableCell padding="checkbox">
      <Checkbox
        size="small"
        checked={all}
        indeterminate={!all && chosenHere.length > 0}
        disabled={!selectable.length}
        onChange={toggle}
        inputProps={{ 'aria-label': translate('bulk.select_page', { max: bulk.max }) }}
      />
    </TableCell>
  );
}

/** A row's checkbox: disabled with its reason for a record that cannot be chosen, or once the maximum is reached. */
export function SelectRowCell({ bulk, record }: { bulk: BulkActions; record: RaRecord }) {
  const translate = useTranslate();
  const { selectedIds, onToggleItem } = useListContext();
  const reason = bulk.unselectable?.(record);
  const checked = selectedIds.includes(record.id);
  const full = !checked && selectedIds.length >= bulk.max;
  const why = reason ? translate(reason) : full ? translate('bulk.max_reached', { max: bulk.max }) : undefined;
  const box = (
    <Checkbox
      size="small"
      checked={checked}
      disabled={Boolean(why)}
      onChange={() => onToggleItem(record.id)}
      inputProps={{
        'aria-label': why
          ? translate('bulk.select_row_refused', { id: String(record.id), reason: why })
          : translate('bulk.select_row', { id: String(record.id) }),
      }}
    />
  );
  return (
    <TableCell padding="checkbox" onClick={stop}>
      {why ? (
        <Tooltip title={why}>
          <span>{box}</span>
        </Tooltip>
      ) : (
        box
      )}
    </TableCell>
  );
}

/** The bar, once rows are chosen, with the choice and a way to clear it. */
export function BulkActionsBar({ bulk, model }: { bulk: BulkActions; model: ResourceModel }) {
  const { selectedIds, onUnselectItems } = useListContext();
  if (!selectedIds.length) return null;
  const Bar = bulk.bar;
  return <Bar model={model} selectedIds={selectedIds} clear={() => onUnselectItems()} />;
}
