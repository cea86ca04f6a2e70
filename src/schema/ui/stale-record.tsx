import { Alert, Button } from '@mui/material';
import { HttpError, useNotify, useRefresh, useTranslate } from 'react-admin';

export function isStaleRecord(error: unknown): boolean {
  return error instanceof HttpError && error.status === 409 && error.body?.code === 'STALE_VERSION';
}

/** Someone else saved the record first: say so, keep the user's input, offer to reload. */
function StaleRecordNotice() {
  const translate = useTranslate();
  const refresh = useRefresh();
  return (
    <Alert
      severity="warning"
      variant="filled"
      action={
        <Button color="inherit" size="small" onClick={refresh}>
          {translate('form.reload')}
        </Button>
      }
    >
      {translate('catalogue.stale_version')}
    </Alert>
  );
}

/**
 * Edit's error handling: a stale version gets the notice above; field errors of a 422 stay under
 * their inputs; anything else is a toast with the message.
 */
export function useEditErrorHandler() {
  const notify = useNotify();
  return (error: unknown) => {
    if (isStaleRecord(error)) {
      notify(<StaleRecordNotice />, { type: 'warning', autoHideDuration: null });
      return;
    }
    const fieldErrors = error instanceof HttpError ? error.body?.errors : undefined;
    if (fieldErrors && Object.keys(fieldErrors).length > 0) return;
    notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
  };
}
