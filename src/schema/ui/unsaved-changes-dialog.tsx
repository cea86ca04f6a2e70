import { useEffect, useState, type RefObject } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useFormState } from 'react-hook-form';
import { useBlocker, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';

/** The path of a create or edit form, without the tab index below it: /carriers/create, /carriers/7. */
export function formRootOf(pathname: string): string {
  return /^\/[^/]+\/[^/]+/.exec(pathname)?.[0] ?? pathname;
}

/**
 * Leaving a form with unsaved changes asks first (spec 01 §2.2): 'stay' (primary) keeps the
 * work, 'leave' (secondary) drops it. A save resets the form; a delete sets `leaving`: neither asks.
 */
export function UnsavedChangesDialog({ leaving }: { leaving?: RefObject<boolean> }) {
  const translate = useTranslate();
  const { isSubmitSuccessful, isSubmitting, dirtyFields } = useFormState();
  const unsaved = Object.keys(dirtyFields).length > 0 && !isSubmitSuccessful && !isSubmitting;
  // The form's tabs change the path below the form's own route: that is not leaving.
  const { pathname } = useLocation();
  const [formRoot] = useState(() => formRootOf(pathname));
  const blocker = useBlocker(
    ({ nextLocation }) => unsaved && !leaving?.current && !nextLocation.pathname.startsWith(formRoot),
  );
  const asking = blocker.state === 'blocked' && unsaved;

  useEffect(() => {
    // A save or delete that resets the form while a navigation waits lets it go on.
    if (blocker.state === 'blocked' && !unsaved) blocker.proceed?.();
    // The blocker object changes on every render; its state is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [blocker.state, unsaved]);

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const stay = () => blocker.reset?.();
  const leave = () => blocker.proceed?.();

  return (
    <Dialog open={asking} onClose={stay} aria-labelledby="unsaved-changes-title">
      <DialogTitle id="unsaved-changes-title">{translate('form.unsaved_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('form.unsaved_text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={leave} color="secondary">
          {translate('form.leave')}
        </Button>
        <Button onClick={stay} variant="contained" autoFocus>
          {translate('form.stay')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
