import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Divider, Stack, TextField } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { safeReturnUrl } from '../../authProvider/auth-provider.ts';
import {
  answerChallenge,
  RESEND_CODE,
  startSignIn,
  startSingleSignOn,
  type SignInProgress,
  type SignInStep,
} from '../../authProvider/amplify-session.ts';
import { ssoConfigured } from '../../authProvider/sso.ts';
import { AuthLayout, type EnterApp } from './auth-layout.tsx';
import { blockedSeconds, signInErrorKey } from './sign-in-errors.ts';
import { ErrorAlert, requiredMessage, UsernameField } from './form-parts.tsx';
import { useTranslate } from './translation.tsx';

type Step = 'credentials' | Exclude<SignInStep, 'done'> | 'entering';

/**
 * Set from the accepted code until the app's layout is on screen (`appEntered`): the session is
 * being stored, the admin loaded and the first page opened. A sign-in page that mounts meanwhile (the
 * admin's own, while it takes over the address) says so instead of flashing an empty form. A safety
 * timeout gives the form back should the app never show.
 */
let enteringSince: number | undefined;
const ENTERING_AT_MOST_MS = 20_000;

function isEntering() {
  return enteringSince !== undefined && Date.now() - enteringSince < ENTERING_AT_MOST_MS;
}

/** The app's layout is on screen: a sign-in page shown from now on is a real one (after a sign-out). */
export function appEntered() {
  enteringSince = undefined;
}

const minutesAndSeconds = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export function LoginPage({ companyName, enterApp }: { companyName: string; enterApp: EnterApp }) {
  const translate = useTranslate();
  const [searchParams] = useSearchParams();
  const returnUrl = safeReturnUrl(searchParams.get('returnUrl'));
  const [step, setStep] = useState<Step>(() => (isEntering() ? 'entering' : 'credentials'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Set when a form of the current step was sent with a required field blank: the blank fields say so, and
  // nothing goes to the identity service.
  const [blankTried, setBlankTried] = useState(false);
  const blank = (value: string) => blankTried && !value.trim();
  // Set when wrong codes block the account: the code form waits, showing the time left.
  const [codeBlock, setCodeBlock] = useState<{ until: number; secondsLeft: number }>();
  const blockedUntil = codeBlock?.until;

  useEffect(() => {
    if (blockedUntil === undefined) return;
    const timer = setInterval(() => {
      const secondsLeft = Math.max(0, Math.ceil((blockedUntil - Date.now()) / 1000));
      if (secondsLeft > 0) {
        setCodeBlock({ until: blockedUntil, secondsLeft });
        return;
      }
      // The identity service kept the sign-in open; the code sent before the block is void.
      setCodeBlock(undefined);
      setError(undefined);
      setInfo(translate('auth.code_block_over'));
    }, 1000);
    return () => clearInterval(timer);
  }, [blockedUntil, translate]);

  async function advance({ step: next, codeMessage }: SignInProgress) {
    if (next === 'done') {
      enteringSince = Date.now();
      setStep('entering');
      try {
        await enterApp(returnUrl);
      } catch (failure) {
        enteringSince = undefined;
        setStep('credentials');
        throw failure;
      }
      return;
    }
    if (codeMessage === 'INVALID_CODE') {
      setCode('');
      setError(translate('auth.errors.invalid_code'));
    }
    if (codeMessage?.includes('OTP_REQUEST_PROCESSED')) setInfo(translate('auth.code_resent'));
    setStep(next);
  }

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    setInfo(undefined);
    try {
      await work();
    } catch (failure) {
      console.error(failure);
      setError(translate(signInErrorKey(failure)));
      const seconds = blockedSeconds(failure);
      if (seconds !== undefined && step === 'code') {
        setCodeBlock({ until: Date.now() + seconds * 1000, secondsLeft: seconds });
      }
    } finally {
      setBusy(false);
    }
  }

  /** Whether the form's required values are all there; if not, the blank fields say so and nothing is sent. */
  const filled = (...values: string[]) => {
    const complete = values.every((value) => value.trim() !== '');
    setBlankTried(!complete);
    if (!complete) {
      setError(undefined);
      setInfo(undefined);
    }
    return complete;
  };

  const submitCredentials = (event: FormEvent) => {
    event.preventDefault();
    if (!filled(username, password)) return;
    void run(async () => advance(await startSignIn(username, password)));
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!filled(code)) return;
    void run(async () => advance(await answerChallenge(code)));
  };

  const resendCode = () => {
    void run(async () => advance(await answerChallenge(RESEND_CODE)));
  };

  // Leaves for the provider's sign-in page; /callback finishes the sign-in.
  const signInWithSso = () => {
    void run(() => startSingleSignOn(returnUrl));
  };

  const submitNewPassword = (event: FormEvent) => {
    event.preventDefault();
    if (!filled(newPassword)) return;
    void run(async () => advance(await answerChallenge(newPassword)));
  };

  const submitButton = (label: string, blocked = false) => (
    <Button
      type="submit"
      variant="contained"
      fullWidth
      disabled={busy || blocked}
      startIcon={busy ? <CircularProgress size={16} /> : undefined}
    >
      {translate(label)}
    </Button>
  );

  return (
    <AuthLayout title={translate('auth.sign_in_title')} companyName={companyName}>
      <ErrorAlert error={error} />
      {step === 'entering' && (
        <Stack role="status" direction="row" spacing={2} sx={{ alignItems: 'center', py: 3 }}>
          <CircularProgress size={24} />
          <span>{translate('auth.entering')}</span>
        </Stack>
      )}
      {step === 'credentials' && (
        <Box component="form" onSubmit={submitCredentials} noValidate>
          <Stack spacing={2}>
            <UsernameField value={username} onChange={setUsername} autoFocus missing={blank(username)} />
            <TextField
              label={translate('auth.password')}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
              required
              fullWidth
              {...requiredMessage(blank(password), translate)}
            />
            {submitButton('auth.sign_in')}
            <Button component={RouterLink} to="/forgot-password" size="small">
              {translate('auth.forgot_password')}
            </Button>
          </Stack>
        </Box>
      )}
      {step === 'credentials' && ssoConfigured() && (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <Divider>{translate('sso.or')}</Divider>
          <Button variant="outlined" color="secondary" fullWidth onClick={signInWithSso} disabled={busy}>
            {translate('sso.sign_in')}
          </Button>
        </Stack>
      )}
      {info && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {info}
        </Alert>
      )}
      {step === 'code' && (
        <Box component="form" onSubmit={submitCode} noValidate>
          <Stack spacing={2}>
            {codeBlock ? (
              <Alert severity="warning" role="status">
                {translate('auth.code_blocked_time_left', { time: minutesAndSeconds(codeBlock.secondsLeft) })}
              </Alert>
            ) : (
              <Alert severity="info" role="status">
                {translate('auth.code_sent')}
              </Alert>
            )}
            <TextField
              label={translate('auth.validation_code')}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              inputProps={{ inputMode: 'numeric', maxLength: 6 }}
              disabled={codeBlock !== undefined}
              required
              autoFocus
              fullWidth
              {...requiredMessage(blank(code), translate)}
            />
            {submitButton('auth.verify', codeBlock !== undefined)}
            <Button onClick={resendCode} disabled={busy || codeBlock !== undefined}>
              {translate('auth.resend_code')}
            </Button>
          </Stack>
        </Box>
      )}
      {step === 'new-password' && (
        <Box component="form" onSubmit={submitNewPassword} noValidate>
          <Stack spacing={2}>
            <Alert severity="info" role="status">
              {translate('auth.new_password_required')}
            </Alert>
            <TextField
              label={translate('auth.new_password')}
              type="password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              autoComplete="new-password"
              required
              autoFocus
              fullWidth
              {...requiredMessage(blank(newPassword), translate)}
            />
            {submitButton('auth.save_password')}
          </Stack>
        </Box>
      )}
    </AuthLayout>
  );
}
