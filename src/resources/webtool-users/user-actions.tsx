import { Button } from '@mui/material';
import { useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';

type Caller = { call: <T>(request: { method: 'PUT'; path: string; body: object }) => Promise<T> };

/** PUT webtool/identity_access/users action types (spec 01 §4). */
const actions = [
  { type: 1, key: 'enable', shown: (enabled: boolean) => !enabled },
  { type: 2, key: 'disable', shown: (enabled: boolean) => enabled },
  { type: 3, key: 'reset_password', shown: () => true },
] as const;

/** Enable, disable and password reset of a webtool user. */
export function UserActions() {
  const record = useRecordContext<{ id: string; username: string; enabled: boolean }>();
  const dataProvider = useDataProvider() as unknown as Caller;
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  if (!record) return null;

  const run = async (type: number, key: string) => {
    try {
      await dataProvider.call({
        method: 'PUT',
        path: 'webtool/identity_access/users',
        body: { username: record.username, action_type: type },
      });
      notify(`users.done.${key}`, { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  return (
    <>
      {actions
        .filter((action) => action.shown(record.enabled))
        .map((action) => (
          <Button key={action.type} onClick={() => void run(action.type, action.key)}>
            {translate(`users.actions.${action.key}`)}
          </Button>
        ))}
    </>
  );
}
