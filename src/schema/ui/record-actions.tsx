import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import {
  useDataProvider,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { accessLevel, type PermissionSet } from '../permissions.ts';
import { mayDo } from '../resource-actions.ts';
import { matchesCondition, type RecordActionModel, type ResourceModel } from '../resource-model.ts';

type Caller = {
  call: <T>(request: { method: RecordActionModel['method']; path: string; body: object }) => Promise<T>;
};

/** What the authProvider's getPermissions gives: the partner type and the policies of the user. */
interface CallerProfile {
  partnerType: string;
  superAdmin: boolean;
  permissions: PermissionSet;
}

/** An action's own `levels` / `partnerTypes`, or else the rule of editing the record. */
function useMaySee(model: ResourceModel) {
  const { permissions: profile } = usePermissions<CallerProfile | undefined>();
  return (action: RecordActionModel) => {
    if (!profile?.permissions) return false;
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

/**
 * The `x-record-actions` of a record as buttons of its edit page: each shown for the records its
 * `when` matches and the users it names, asks its confirmation, calls the gateway, then reloads the
 * record; a refusal shows the gateway's message and changes nothing.
 */
export function RecordActionButtons({ model }: { model: ResourceModel }) {
  const record = useRecordContext();
  const dataProvider = useDataProvider() as unknown as Caller;
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const maySee = useMaySee(model);
  const [asking, setAsking] = useState<RecordActionModel>();
  const [running, setRunning] = useState(false);
  if (!record) return null;

  const run = async (action: RecordActionModel) => {
    setAsking(undefined);
    setRunning(true);
    try {
      await dataProvider.call({
        method: action.method,
        path: `webtool/${model.endpoint}`,
        body: actionBody(model, action, record),
      });
      notify(action.done ?? 'form.action_done', { type: 'success', messageArgs: { action: translate(action.label) } });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setRunning(false);
    }
  };

  const shown = model.recordActions.filter(
    (action) => (!action.when || matchesCondition(record, action.when)) && maySee(action),
  );
  return (
    <>
      {shown.map((action) => (
        <Button
          key={action.name}
          disabled={running}
          onClick={() => (action.confirm ? setAsking(action) : void run(action))}
        >
          {translate(action.label)}
        </Button>
      ))}
      {asking?.confirm && (
        <Dialog open onClose={() => setAsking(undefined)} aria-labelledby="record-action-title">
          <DialogTitle id="record-action-title">{translate(asking.label)}</DialogTitle>
          <DialogContent>
            <DialogContentText>{translate(asking.confirm)}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAsking(undefined)}>{translate('ra.action.cancel')}</Button>
            <Button variant="contained" onClick={() => void run(asking)}>
              {translate('ra.action.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
