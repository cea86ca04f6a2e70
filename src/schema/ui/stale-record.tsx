import { useEffect } from 'react';
import { Alert, Button } from '@mui/material';
import { useFormContext } from 'react-hook-form';
import { HttpError, useEditContext, useNotify, useTranslate } from 'react-admin';

export function isStaleRecord(error: unknown): boolean {
  return error instanceof HttpError && error.status === 409 && error.body?.code === 'STALE_VERSION';
}

/**
 * The notice lives in the notification area, outside the form: it asks the open edit form (see
 * DiscardOnReload) to reload.
 */
const reloadRequests = new EventTarget();
const RELOAD = 'reload';

/** Asks the open edit form to read its record again (the stale notice, the live "saved by" notice). */
export const requestReload = () => reloadRequests.dispatchEvent(new Event(RELOAD));

/**
 * Inside an edit form: on the notice's Reload, fetches the record again and resets the form to it.
 * The form keeps typed values when its record reloads by itself (schema-form.tsx); asked to reload,
 * the user wants the other person's version instead.
 */
export function DiscardOnReload() {
  const { reset } = useFormContext();
  const { refetch } = useEditContext();
  useEffect(() => {
    const reload = async () => {
      const result = await refetch?.();
      if (result?.data) reset(result.data);
    };
    reloadRequests.addEventListener(RELOAD, reload);
    return () => reloadRequests.removeEventListener(RELOAD, reload);
  }, [reset, refetch]);
  return null;
}

/** Someone else saved the record first: say so, keep the user's input, offer to reload. */
function StaleRecordNotice() {
  const translate = useTranslate();
  return (
    <Alert
      severity="warning"
      variant="filled"
      action={
        <Button color="inherit" size="small" onClick={requestReload}>
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
