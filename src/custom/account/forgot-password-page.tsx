import { useState, type FormEvent } from 'react';
import { Box, Button, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { requestPasswordReset } from '../../authProvider/amplify-session.ts';
import { AuthLayout } from './auth-layout.tsx';
import { BackToSignIn, ErrorAlert, UsernameField, useSubmission } from './form-parts.tsx';
import { useTranslate } from './translation.tsx';

/** Asks for a reset code by e-mail, then continues on the confirm page. */
export function ForgotPasswordPage({ companyName }: { companyName: string }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const { busy, error, fail, run } = useSubmission();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) return fail('validation.required');
    void run(async () => {
      await requestPasswordReset(username);
      navigate(`/confirm-password?username=${encodeURIComponent(username.trim())}`);
    });
  };

  return (
    <AuthLayout title={translate('auth.forgot_password_title')} companyName={companyName}>
      <ErrorAlert error={error} />
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <UsernameField value={username} onChange={setUsername} autoFocus />
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('auth.send_reset_code')}
          </Button>
          <BackToSignIn />
        </Stack>
      </Box>
    </AuthLayout>
  );
}
