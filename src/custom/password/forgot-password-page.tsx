import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { requestPasswordReset } from '../../authProvider/amplify-session.ts';
import { AuthLayout } from '../login/auth-layout.tsx';
import { signInErrorKey } from '../login/sign-in-errors.ts';

/** Asks for a reset code by e-mail, then continues on the confirm page. */
export function ForgotPasswordPage({ companyName }: { companyName: string }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) return setError(translate('validation.required'));
    setBusy(true);
    setError(undefined);
    try {
      await requestPasswordReset(username);
      navigate(`/confirm-password?username=${encodeURIComponent(username.trim())}`);
    } catch (failure) {
      console.error(failure);
      setError(translate(signInErrorKey(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={translate('auth.forgot_password_title')} companyName={companyName}>
      {error && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            label={translate('auth.username')}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
            required
            autoFocus
            fullWidth
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('auth.send_reset_code')}
          </Button>
          <Button component={RouterLink} to="/login" size="small">
            {translate('auth.back_to_sign_in')}
          </Button>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
