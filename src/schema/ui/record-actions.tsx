import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import {
  Form,
  HttpError,
  SaveButton,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useProfile } from './profile.ts';
import { useGateway } from './gateway-api.ts';
import { accessLevel, featureOption } from '../permissions.ts';
import { mayDo } from '../resource-actions.ts';
import { formValuesOf, matchesCondition, type RecordActionModel, type ResourceModel } from '../resource-model.ts';
import { toFieldErrors, validateRecord } from '../validate.ts';
import type { FieldErrors } from '../../contract/errors.ts';
import { formOf, loadValidators, schemaRegistry } from './registry.ts';
import { SchemaInput } from './schema-inputs.tsx';

/** An action's own `levels` / `partnerTypes`, or else the rule of editing the record; and its feature option. */
function useMaySee(model: ResourceModel) {
  const profile = useProfile();
  return (action: RecordActionModel) => {
    if (!profile?.permissions) return false;
    const { option } = action;
    if (option && !featureOption(profile.permissions, model.features, option.option, option.fallback ?? false)) {
      return false;
    }
    const actor = {
      partnerType: profile.partnerType,
      superAdmin: profile.superAdmin,
      level: accessLevel(profile.permissions, model.features),
    };
    const own =
      action.levels || action.partnerTypes ? { levels: action.levels, partnerTypes: action.partnerTypes } : undefined;
    const rule = { partnerTypes: model.partnerTypes, actions: { ...model.actions, ...(own && { edit: own }) } };
    return mayDo(actor, rule, 'edit');
  };
}

/** The request body: the record's fields the action sends (its id by default), its constants and its opname. */
export function actionBody(model: ResourceModel, action: RecordActionModel, record: RaRecord): Record<string, unknown> {
  const sent = Object.fromEntries((action.send ?? [model.id]).map((field) => [field, record[field]]));
  return { ...sent, ...action.body, ...(action.opname && { opname: action.opname }) };
}

/** react-admin puts a submission error under its input and translates it with its arguments in this form. */
function submissionErrors(errors: FieldErrors): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, { message, args }]) => [
      field,
      `@@react-admin@@${JSON.stringify({ message, args: args ?? {} })}`,
    ]),
  );
}

function gatewayFieldErrors(error: unknown): FieldErrors | undefined {
  if (!(error instanceof HttpError) || error.status !== 422) return undefined;
  const errors = (error.body as { errors?: unknown } | undefined)?.errors;
  return errors && typeof errors === 'object' && !Array.isArray(errors) && Object.keys(errors).length
    ? (errors as FieldErrors)
    : undefined;
}

/**
 * The dialog of an action with a `form`: the form schema's inputs, prefilled from the record, checked
 * by the same validator as the edit form, and sent on Save. A refusal keeps the dialog and what was
 * typed: field errors go under their inputs, any other message above them.
 */
function RecordActionForm({
  action,
  formSchemaId,
  record,
  send,
  close,
}: {
  action: RecordActionModel;
  formSchemaId: string;
  record: RaRecord;
  send: (values: Record<string, unknown>) => Promise<void>;
  close: () => void;
}) {
  const translate = useTranslate();
  const form = formOf(formSchemaId);
  // Taken once: a record reloading under the open dialog must not reset what the user typed.
  const [initialValues] = useState(() => formValuesOf(form, record));
  const [refusal, setRefusal] = useState<string>();
  useEffect(() => void loadValidators().catch(() => undefined), []);
  const validate = useMemo(
    () => async (values: Record<string, unknown>) => {
      await loadValidators();
      return toFieldErrors(validateRecord(schemaRegistry, form.schemaId, values));
    },
    [form.schemaId],
  );
  const submit = async (values: Record<string, unknown>) => {
    setRefusal(undefined);
    try {
      await loadValidators();
      await send(validateRecord(schemaRegistry, form.schemaId, values).data);
      close();
    } catch (error) {
      const fieldErrors = gatewayFieldErrors(error);
      setRefusal(fieldErrors ? translate('http.save_failed') : (error as Error).message);
      return fieldErrors && submissionErrors(fieldErrors);
    }
  };
  return (
    <Dialog open onClose={close} fullWidth maxWidth="xs" aria-labelledby="record-action-form-title">
      <DialogTitle id="record-action-form-title">{translate(action.label)}</DialogTitle>
      <Form record={initialValues} validate={validate} onSubmit={submit}>
        <DialogContent>
          {action.confirm && <DialogContentText>{translate(action.confirm)}</DialogContentText>}
          {refusal && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {refusal}
            </Alert>
          )}
          {form.fields.map((field) => (
            <SchemaInput key={field.source} field={field} mode="edit" />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('ra.action.cancel')}</Button>
          <SaveButton />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** How an action of the page head is drawn: inline as a button, or as an item of its "More" menu. */
export interface RecordActionEntry {
  action: RecordActionModel;
  label: string;
  /** Destructive (`destructive: true`): drawn apart, in the error colour, and always confirmed. */
  destructive: boolean;
  start: () => void;
}

/**
 * The `x-record-actions` of a record that the user may run on it now: each shown for the records its
 * `when` matches and the users it names, asks its confirmation (a destructive one always does) or opens
 * its form, calls the gateway, then reloads the record; a refusal shows the gateway's message and
 * changes nothing. The page head lays the entries out (src/schema/ui/record-page-head.tsx); `dialogs`
 * must be rendered beside them.
 */
export function useRecordActions(model: ResourceModel) {
  const record = useRecordContext();
  const dataProvider = useGateway();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const maySee = useMaySee(model);
  const [asking, setAsking] = useState<RecordActionModel>();
  const [filling, setFilling] = useState<RecordActionModel>();
  const [running, setRunning] = useState(false);
  if (!record) return { entries: [] as RecordActionEntry[], running, dialogs: null };

  // The record's own fields and the action's constants win over a form field of the same name.
  const call = async (action: RecordActionModel, values: Record<string, unknown> = {}) => {
    await dataProvider.call({
      method: action.method,
      path: `webtool/${action.endpoint ?? model.endpoint}`,
      body: { ...values, ...actionBody(model, action, record) },
    });
    notify(action.done ?? 'form.action_done', { type: 'success', messageArgs: { action: translate(action.label) } });
    refresh();
  };

  const run = async (action: RecordActionModel) => {
    setAsking(undefined);
    setRunning(true);
    try {
      await call(action);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setRunning(false);
    }
  };

  const entries: RecordActionEntry[] = model.recordActions
    .filter((action) => (!action.when || matchesCondition(record, action.when)) && maySee(action))
    .map((action) => ({
      action,
      label: translate(action.label),
      destructive: action.destructive === true,
      start: () =>
        action.form ? setFilling(action) : action.confirm || action.destructive ? setAsking(action) : void run(action),
    }));
  const question = (action: RecordActionModel) =>
    action.confirm ? translate(action.confirm) : translate('form.confirm_action', { action: translate(action.label) });
  const dialogs = (
    <>
      {filling?.form && (
        <RecordActionForm
          action={filling}
          formSchemaId={filling.form}
          record={record}
          send={(values) => call(filling, values)}
          close={() => setFilling(undefined)}
        />
      )}
      {asking && (
        <Dialog open onClose={() => setAsking(undefined)} aria-labelledby="record-action-title">
          <DialogTitle id="record-action-title">{translate(asking.label)}</DialogTitle>
          <DialogContent>
            <DialogContentText>{question(asking)}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAsking(undefined)}>{translate('ra.action.cancel')}</Button>
            <Button
              variant="contained"
              color={asking.destructive ? 'error' : 'primary'}
              onClick={() => void run(asking)}
            >
              {asking.destructive ? translate(asking.label) : translate('ra.action.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
  return { entries, running, dialogs };
}
