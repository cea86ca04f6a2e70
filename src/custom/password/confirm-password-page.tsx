import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { confirmPasswordReset } from '../../authProvider/amplify-session.ts';
import { AuthLayout } from '../login/auth-layout.tsx';
import { signInErrorKey } from '../login/sign-in-errors.ts';
import { passwordProblem } from './password-rules.ts';

/** The e-mailed reset code and a new password that follows the rules. */
export function ConfirmPasswordPage({ companyName }: { companyName: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [username, setUsername] = useState(searchParams.get('username') ?? '');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = !username.trim() || !code.trim() ? 'validation.required' : passwordProblem(password, confirmation);
    if (problem) return setError(translate(problem));
    setBusy(true);
    setError(undefined);
    try {
      await confirmPasswordReset(username, code, password);
      notify('auth.password_changed', { type: 'success' });
      navigate('/login');
    } catch (failure) {
      console.error(failure);
      setError(translate(signInErrorKey(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={translate('auth.confirm_password_title')} companyName={companyName}>
      <Alert severity="info" role="status" sx={{ mb: 2 }}>
        {translate('auth.reset_code_sent')}
      </Alert>
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
            required
            fullWidth
          />
          <TextField
            label={translate('auth.reset_code')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            required
            fullWidth
          />
          <TextField
            label={translate('auth.new_password')}
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            helperText={translate('auth.password_rules')}
            required
            fullWidth
          />
          <TextField
            label={translate('auth.confirm_new_password')}
            type="password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
            autoComplete="new-password"
            required
            fullWidth
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('auth.save_password')}
          </Button>
          <Button component={RouterLink} to="/login" size="small">
            {translate('auth.back_to_sign_in')}
          </Button>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
