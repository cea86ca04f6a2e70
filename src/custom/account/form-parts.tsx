import { useState } from 'react';
import { Alert, Button, TextField } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { signInErrorKey } from './sign-in-errors.ts';
import { useTranslate } from './translation.tsx';

/** Busy flag and translated error of a form that talks to the identity service. */
export function useSubmission(errorKey: (error: unknown) => string = signInErrorKey) {
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const fail = (key: string) => setError(translate(key));
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (failure) {
      console.error(failure);
      fail(errorKey(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, fail, run };
}

export function ErrorAlert({ error }: { error?: string }) {
  if (!error) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }}>
      {error}
    </Alert>
  );
}

interface NewPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
}

/** A new password, with its rules, and its confirmation. */
export function NewPasswordFields({ password, confirmation, onPassword, onConfirmation }: NewPasswordFieldsProps) {
  const translate = useTranslate();
  return (
    <>
      <TextField
        label={translate('auth.new_password')}
        type="password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        autoComplete="new-password"
        helperText={translate('auth.password_rules')}
        required
        fullWidth
      />
      <TextField
        label={translate('auth.confirm_new_password')}
        type="password"
        value={confirmation}
        onChange={(e) => onConfirmation(e.target.value)}
        autoComplete="new-password"
        required
        fullWidth
      />
    </>
  );
}

/** The user name of the sign-in and password screens. */
export function UsernameField({
  value,
  onChange,
  autoFocus = false,
  missing = false,
}: {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  /** Whether a sign-in was tried with the field blank: it says so under itself. */
  missing?: boolean;
}) {
  const translate = useTranslate();
  return (
    <TextField
      label={translate('auth.username')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete="username"
      required
      autoFocus={autoFocus}
      fullWidth
      {...requiredMessage(missing, translate)}
    />
  );
}

/** The props that mark a required field left blank, with the message under it. */
export function requiredMessage(missing: boolean, translate: (key: string) => string) {
  return missing ? { error: true, helperText: translate('validation.required') } : {};
}

/** The way back from a password screen to the sign-in screen. */
export function BackToSignIn() {
  const translate = useTranslate();
  return (
    <Button component={RouterLink} to="/login" size="small">
      {translate('auth.back_to_sign_in')}
    </Button>
  );
}
