import { useEffect, useMemo, useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link } from 'react-router-dom';
import {
  CreateBase,
  EditBase,
  Form,
  ResourceContextProvider,
  SaveButton,
  useCanAccess,
  useDelete,
  useGetList,
  useI18nProvider,
  useNotify,
  useRecordContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { ChildModel, FieldModel, ResourceModel } from '../resource-model.ts';
import { loadValidators, modelOf, schemaRegistry } from './registry.ts';
import { cellContext, columnPlan } from './schema-columns.tsx';
import { SchemaInput } from './schema-inputs.tsx';
import { toFieldErrors, validateRecord } from '../validate.ts';

/** A parent has few children (a carrier's couriers): one page holds them all. */
const CHILDREN_PER_PARENT = 500;

type Editing = { kind: 'create' } | { kind: 'edit'; id: Identifier } | undefined;

function ChildForm({
  child,
  childModel,
  mode,
}: {
  child: ChildModel;
  childModel: ResourceModel;
  mode: 'create' | 'edit';
}) {
  useEffect(() => void loadValidators().catch(() => undefined), []);
  const validate = useMemo(
    () => async (values: Record<string, unknown>) => {
      await loadValidators();
      return toFieldErrors(validateRecord(schemaRegistry, childModel.schemaId, values));
    },
    [childModel.schemaId],
  );
  const fields = childModel.fields.filter(
    (field) => field.source !== child.foreignKey && !(field.readOnly && mode === 'create'),
  );
  return (
    <Form validate={validate}>
      <DialogContent>
        {fields.map((field) => (
          <SchemaInput key={field.source} field={field} mode={mode} />
        ))}
      </DialogContent>
      <DialogActions>
        <SaveButton />
      </DialogActions>
    </Form>
  );
}

/** Columns of the child table: those the parent names, else the child's shown columns but the parent's key. */
function childColumns(child: ChildModel, childModel: ResourceModel): FieldModel[] {
  const named = child.columns;
  const fields = named
    ? named.map((source) => childModel.fields.find((field) => field.source === source)).filter((f) => f !== undefined)
    : childModel.fields.filter((field) => !field.column.hide && field.source !== child.foreignKey);
  // The table opens a row in a dialog, not on a page of its own: a link column shows its text.
  return fields.map((field) =>
    field.column.type === 'link' ? { ...field, column: { ...field.column, type: 'text' as const } } : field,
  );
}

/**
 * `x-children`: the parent's child records (a carrier's couriers) as a table in a tab of its edit
 * page, read through the child's own endpoint filtered by the parent's id; rows are created, edited
 * and deleted there too, with the child's validation and the gateway's rules for it.
 */
export function NestedRecords({ child }: { child: ChildModel }) {
  const parent = useRecordContext();
  const childModel = modelOf(child.schema);
  const resource = childModel.name;
  const translate = useTranslate();
  const locale = useI18nProvider().getLocale();
  const notify = useNotify();
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<RaRecord>();
  const { canAccess: canCreate } = useCanAccess({ resource, action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource, action: 'delete' });
  const [deleteOne, { isPending: isDeleting }] = useDelete();
  const parentId = parent?.id;
  const { data: rows = [], isPending } = useGetList(
    resource,
    {
      filter: { [child.foreignKey]: parentId },
      pagination: { page: 1, perPage: CHILDREN_PER_PARENT },
      sort: childModel.sort,
    },
    { enabled: parentId !== undefined },
  );
  const columns = useMemo(() => {
    const context = cellContext(translate, locale, () => '');
    return childColumns(child, childModel).map((field) => ({ field, render: columnPlan(field, context) }));
  }, [child, childModel, translate, locale]);

  if (!parent) return null;
  const childName = translate(`resources.${resource}.name`, { smart_count: 1 });
  const childrenName = translate(`resources.${resource}.name`, { smart_count: 2 });
  const close = () => setEditing(undefined);
  const saved = (kind: 'created' | 'saved') => (data: RaRecord) => {
    close();
    notify(`form.${kind}`, {
      type: 'info',
      messageArgs: { resource: childName, name: String(data[childModel.representation] ?? data.id) },
    });
  };
  const remove = (row: RaRecord) =>
    deleteOne(
      resource,
      { id: row.id, previousData: row },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setDeleting(undefined);
          notify('ra.notification.deleted', { type: 'info', messageArgs: { smart_count: 1 } });
        },
        onError: (error) => {
          setDeleting(undefined);
          notify((error as Error).message, { type: 'error' });
        },
      },
    );

  return (
    <ResourceContextProvider value={resource}>
      <Box component="section" aria-label={childrenName} sx={{ width: '100%' }}>
        {canCreate && (
          <Button onClick={() => setEditing({ kind: 'create' })}>{translate('nested.add', { name: childName })}</Button>
        )}
        {!isPending && rows.length === 0 ? (
          <Typography sx={{ my: 2 }}>{translate('nested.empty')}</Typography>
        ) : (
          <Table size="small" aria-label={childrenName}>
            <TableHead>
              <TableRow>
                {columns.map(({ field }) => (
                  <TableCell key={field.source}>{translate(`resources.${resource}.fields.${field.source}`)}</TableCell>
                ))}
                <TableCell align="right">{translate('nested.row_actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={String(row.id)}>
                  {columns.map(({ field, render }) => (
                    <TableCell key={field.source}>{render(row)}</TableCell>
                  ))}
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {child.open && (
                      <Button
                        size="small"
                        component={Link}
                        to={`/${resource}/${encodeURIComponent(String(row.id))}`}
                        aria-label={translate('nested.open_row', { name: String(row[childModel.representation]) })}
                      >
                        {translate('nested.open')}
                      </Button>
                    )}
                    {canEdit && (
                      <Button
                        size="small"
                        aria-label={translate('nested.edit_row', { name: String(row[childModel.representation]) })}
                        onClick={() => setEditing({ kind: 'edit', id: row.id })}
                      >
                        {translate('ra.action.edit')}
                      </Button>
                    )}
                    {canDelete && (
                      <Button
                        size="small"
                        color="error"
                        aria-label={translate('nested.delete_row', { name: String(row[childModel.representation]) })}
                        onClick={() => setDeleting(row)}
                      >
                        {translate('ra.action.delete')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Box>
      {editing && (
        <Dialog open onClose={close} fullWidth maxWidth="sm" aria-labelledby="nested-record-title">
          <DialogTitle id="nested-record-title">
            {translate(editing.kind === 'create' ? 'nested.create_title' : 'nested.edit_title', { name: childName })}
          </DialogTitle>
          {editing.kind === 'create' ? (
            <CreateBase
              resource={resource}
              record={{ [child.foreignKey]: parentId }}
              redirect={false}
              mutationOptions={{ onSuccess: saved('created') }}
            >
              <ChildForm child={child} childModel={childModel} mode="create" />
            </CreateBase>
          ) : (
            <EditBase
              resource={resource}
              id={editing.id}
              redirect={false}
              mutationMode="pessimistic"
              mutationOptions={{ onSuccess: saved('saved') }}
            >
              <ChildForm child={child} childModel={childModel} mode="edit" />
            </EditBase>
          )}
          <DialogActions>
            <Button onClick={close}>{translate('ra.action.cancel')}</Button>
          </DialogActions>
        </Dialog>
      )}
      {deleting && (
        <Dialog open onClose={() => setDeleting(undefined)} aria-labelledby="nested-delete-title">
          <DialogTitle id="nested-delete-title">
            {translate('nested.delete_title', { name: String(deleting[childModel.representation]) })}
          </DialogTitle>
          <DialogActions>
            <Button onClick={() => setDeleting(undefined)}>{translate('ra.action.cancel')}</Button>
            <Button variant="contained" color="error" disabled={isDeleting} onClick={() => remove(deleting)}>
              {translate('ra.action.delete')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </ResourceContextProvider>
  );
}
