import { useEffect, useRef, useState } from 'react';
import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { safeReturnUrl } from '../../authProvider/auth-provider.ts';
import {
  completeSso,
  SsoCheck,
  ssoGroupCheck,
  clearSsoNotice,
  peekSsoNotice,
  ssoSignOut,
  type SsoNotice,
  type SsoResult,
} from '../../authProvider/sso.ts';
import { AuthLayout, type EnterApp } from './auth-layout.tsx';
import { useTranslate } from './translation.tsx';

type View =
  | { kind: 'working' }
  /** Back from the provider's logout; `notice` says why when the app ended the sign-in itself. */
  | { kind: 'signed_out'; notice?: SsoNotice }
  /** Signed in at the provider but refused here (spec 01 §5): being signed out. */
  | { kind: 'refused'; notice: SsoNotice }
  | { kind: 'failed' };

const noticeMessages: Record<SsoNotice, string> = {
  group_missing: 'sso.errors.group_missing',
  invalid_group: 'sso.errors.invalid_group',
};

/**
 * /callback, where the single sign-on provider comes back (spec 01 §2.3). With a code: finish the
 * sign-in, run the group check, and enter the app only when it says OK; GroupMissing and
 * InvalidGroup sign out at the provider, which comes back here to show why. Without a code (after
 * the provider's logout): a signed-out message and the way back to /login.
 */
export function SsoCallbackPage({
  companyName,
  enterApp,
  leaveApp,
}: {
  companyName: string;
  enterApp: EnterApp;
  /** Ends the session that could not be entered. */
  leaveApp: () => Promise<unknown>;
}) {
  const translate = useTranslate();
  const [searchParams] = useSearchParams();
  const fromProvider = searchParams.has('code') || searchParams.has('error');
  const [view, setView] = useState<View>(() =>
    fromProvider ? { kind: 'working' } : { kind: 'signed_out', notice: peekSsoNotice() },
  );
  // A code answers once: the effect must not run the exchange twice (React's strict mode runs effects twice).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!fromProvider) {
      clearSsoNotice();
      return;
    }
    void (async () => {
      let result: SsoResult;
      try {
        result = await completeSso(searchParams);
      } catch (error) {
        // Nothing was stored: a session already in place (if any) stays as it is.
        console.error(error);
        setView({ kind: 'failed' });
        return;
      }
      const check = ssoGroupCheck(result.claims);
      if (check !== SsoCheck.OK) {
        const notice: SsoNotice = check === SsoCheck.GroupMissing ? 'group_missing' : 'invalid_group';
        setView({ kind: 'refused', notice });
        ssoSignOut(notice);
        return;
      }
      try {
        await enterApp(safeReturnUrl(result.returnUrl ?? null));
      } catch (error) {
        console.error(error);
        await leaveApp().catch(() => undefined);
        setView({ kind: 'failed' });
      }
    })();
  }, [fromProvider, searchParams, enterApp, leaveApp]);

  const notice = view.kind === 'signed_out' || view.kind === 'refused' ? view.notice : undefined;
  const error = notice ? noticeMessages[notice] : view.kind === 'failed' ? 'sso.errors.failed' : undefined;
  const title = view.kind === 'signed_out' && !notice ? 'sso.signed_out_title' : 'sso.title';

  return (
    <AuthLayout title={translate(title)} companyName={companyName}>
      <Stack spacing={2}>
        {view.kind === 'working' && (
          <Stack direction="row" spacing={2} alignItems="center" role="status">
            <CircularProgress size={20} />
            <Typography>{translate('sso.completing')}</Typography>
          </Stack>
        )}
        {error && (
          <Alert severity="error" role="alert">
            {translate(error)}
          </Alert>
        )}
        {view.kind === 'signed_out' && !notice && (
          <Alert severity="info" role="status">
            {translate('sso.signed_out')}
          </Alert>
        )}
        {(view.kind === 'signed_out' || view.kind === 'failed') && (
          <Button component={RouterLink} to="/login" variant="contained" fullWidth>
            {translate('sso.back_to_sign_in')}
          </Button>
        )}
      </Stack>
    </AuthLayout>
  );
}
