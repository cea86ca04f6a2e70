import { useState, type FormEvent } from 'react';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { Title, useGetIdentity, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { changePassword } from '../../authProvider/amplify-session.ts';
import { useProfile } from '../../schema/ui/profile.ts';
import { localisedText } from '../../schema/localised-text.ts';
import { passwordProblem } from './password-rules.ts';
import { changePasswordErrorKey } from './sign-in-errors.ts';
import { ErrorAlert, NewPasswordFields, useSubmission } from './form-parts.tsx';

/** Who the user is, and changing their password. */
export function ProfilePage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const profile = useProfile();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { busy, error, fail, run } = useSubmission(changePasswordErrorKey);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = !oldPassword ? 'validation.required' : passwordProblem(password, confirmation);
    if (problem) return fail(problem);
    void run(async () => {
      await changePassword(oldPassword, password);
      setOldPassword('');
      setPassword('');
      setConfirmation('');
      notify('auth.password_changed', { type: 'success' });
    });
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
            {translate('profile.role', {
              role: `${localisedText(profile?.roleDescription, profile?.roleDescriptions, locale)} (${profile?.roleName})`,
            })}
          </Typography>
          {profile?.partnerName && (
            <Typography color="text.secondary">
              {translate('profile.partner', { partner: profile.partnerName })}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('profile.change_password')}
          </Typography>
          <ErrorAlert error={error} />
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
              <NewPasswordFields
                password={password}
                confirmation={confirmation}
                onPassword={setPassword}
                onConfirmation={setConfirmation}
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
