import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { confirmPasswordReset } from '../../authProvider/amplify-session.ts';
import { AuthLayout } from './auth-layout.tsx';
import { passwordProblem } from './password-rules.ts';
import { BackToSignIn, ErrorAlert, NewPasswordFields, UsernameField, useSubmission } from './form-parts.tsx';
import { noticeState } from './notice-toast.tsx';
import { useTranslate } from './translation.tsx';

/** The e-mailed reset code and a new password that follows the rules. */
export function ConfirmPasswordPage({ companyName }: { companyName: string }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [username, setUsername] = useState(searchParams.get('username') ?? '');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { busy, error, fail, run } = useSubmission();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = !username.trim() || !code.trim() ? 'validation.required' : passwordProblem(password, confirmation);
    if (problem) return fail(problem);
    void run(async () => {
      await confirmPasswordReset(username, code, password);
      navigate('/login', { state: noticeState('auth.password_changed', 'success') });
    });
  };

  return (
    <AuthLayout title={translate('auth.confirm_password_title')} companyName={companyName}>
      <Alert severity="info" role="status" sx={{ mb: 2 }}>
        {translate('auth.reset_code_sent')}
      </Alert>
      <ErrorAlert error={error} />
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <UsernameField value={username} onChange={setUsername} />
          <TextField
            label={translate('auth.reset_code')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            required
            fullWidth
          />
          <NewPasswordFields
            password={password}
            confirmation={confirmation}
            onPassword={setPassword}
            onConfirmation={setConfirmation}
          />
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('auth.save_password')}
          </Button>
          <BackToSignIn />
        </Stack>
      </Box>
    </AuthLayout>
  );
}
