import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { Title, useGetIdentity, useNotify, usePermissions, useTranslate } from 'react-admin';
import { changePassword } from '../../authProvider/amplify-session.ts';
import type { AccessProfile } from '../../authProvider/access-profile.ts';
import { passwordProblem } from '../password/password-rules.ts';
import { signInErrorKey } from '../login/sign-in-errors.ts';

function changePasswordErrorKey(error: unknown): string {
  // Here a refused password is the old one the user typed, not a sign-in.
  return (error as { name?: string })?.name === 'NotAuthorizedException'
    ? 'auth.errors.old_password'
    : signInErrorKey(error);
}

/** Who the user is, and changing their password. */
export function ProfilePage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const { permissions: profile } = usePermissions<AccessProfile>();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = !oldPassword ? 'validation.required' : passwordProblem(password, confirmation);
    if (problem) return setError(translate(problem));
    setBusy(true);
    setError(undefined);
    try {
      await changePassword(oldPassword, password);
      setOldPassword('');
      setPassword('');
      setConfirmation('');
      notify('auth.password_changed', { type: 'success' });
    } catch (failure) {
      console.error(failure);
      setError(translate(changePasswordErrorKey(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ p: 2, maxWidth: 560 }}>
      <Title title={translate('menu.profile')} />
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('profile.account')}
          </Typography>
          <Typography>{identity?.fullName}</Typography>
          <Typography color="text.secondary">
            {translate('profile.role')}: {profile?.roleDescription} ({profile?.roleName})
          </Typography>
          {profile?.partnerName && (
            <Typography color="text.secondary">
              {translate('profile.partner')}: {profile.partnerName}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('profile.change_password')}
          </Typography>
          {error && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <Box component="form" onSubmit={submit} noValidate>
            <Stack spacing={2}>
              <TextField
                label={translate('profile.old_password')}
                type="password"
                value={oldPassword}
                onChange={(e) => setOldPassword(e.target.value)}
                autoComplete="current-password"
                required
              />
              <TextField
                label={translate('auth.new_password')}
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="new-password"
                helperText={translate('auth.password_rules')}
                required
              />
              <TextField
                label={translate('auth.confirm_new_password')}
                type="password"
                value={confirmation}
                onChange={(e) => setConfirmation(e.target.value)}
                autoComplete="new-password"
                required
              />
              <Button type="submit" variant="contained" disabled={busy}>
                {translate('auth.save_password')}
              </Button>
            </Stack>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
