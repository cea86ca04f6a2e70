import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, signIn, signOut, type SignInOutput } from 'aws-amplify/auth';
import type { AuthSettings } from '../contract/auth-settings.ts';
import { configureSso, endSsoSession, isSsoSession, ssoSession, startSso } from './sso.ts';

let configured = false;

export function configureAmplify(settings: AuthSettings) {
  if (configured) return;
  configureSso(settings.oauthBase ? { oauthBase: settings.oauthBase, clientId: settings.userPoolClientId } : undefined);
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: settings.userPoolId,
        userPoolClientId: settings.userPoolClientId,
        identityPoolId: settings.identityPoolId,
        ...(settings.userPoolEndpoint ? { userPoolEndpoint: settings.userPoolEndpoint } : {}),
        ...(settings.identityPoolEndpoint ? { identityPoolEndpoint: settings.identityPoolEndpoint } : {}),
        loginWith: { email: true, username: true },
      },
    },
  });
  configured = true;
}

/** What the sign-in screen has to ask next. */
export type SignInStep = 'code' | 'new-password' | 'done';

export interface SignInProgress {
  step: SignInStep;
  /** The identity service's word on the code: CODE_SENT, INVALID_CODE or OTP_REQUEST_PROCESSED. */
  codeMessage?: string;
}

function progressOf(output: SignInOutput): SignInProgress {
  const step = stepOf(output);
  if (step !== 'code' || output.nextStep.signInStep !== 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE') return { step };
  return { step, codeMessage: output.nextStep.additionalInfo?.message };
}

function stepOf(output: SignInOutput): SignInStep {
  switch (output.nextStep.signInStep) {
    case 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE':
      return 'code';
    case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
      return 'new-password';
    case 'DONE':
      return 'done';
    default:
      throw Object.assign(new Error(output.nextStep.signInStep), { name: 'UnsupportedStep' });
  }
}

/** The validation data carries the browser's timezone offset (spec 01 §7). */
function clientMetadata(): Record<string, string> {
  return { timezone_offset: String(-new Date().getTimezoneOffset()) };
}

export async function startSignIn(username: string, password: string): Promise<SignInProgress> {
  // A half-finished earlier attempt would make Amplify refuse a new sign-in.
  await signOut().catch(() => undefined);
  const output = await signIn({
    username: username.trim(),
    password,
    options: { authFlowType: 'CUSTOM_WITH_SRP', clientMetadata: clientMetadata() },
  });
  return progressOf(output);
}

/** The answer `RESEND` asks the identity service for a fresh code. */
export const RESEND_CODE = 'RESEND';

export async function answerChallenge(answer: string): Promise<SignInProgress> {
  const output = await confirmSignIn({
    challengeResponse: answer.trim(),
    options: { clientMetadata: clientMetadata() },
  });
  return progressOf(output);
}

/**
 * The signed-in session: Amplify's, or the single-sign-on one (same token shape, no credentials,
 * refreshed through the provider's token endpoint) while the session keys say so.
 */
export async function currentSession(forceRefresh = false) {
  if (isSsoSession()) return ssoSession(forceRefresh);
  const session = await fetchAuthSession({ forceRefresh });
  if (!session.tokens?.idToken) return undefined;
  return session;
}

export async function endSession() {
  if (isSsoSession()) endSsoSession();
  await signOut().catch(() => undefined);
}

/** Leaves for the single sign-on provider, after ending any half-finished Amplify sign-in. */
export async function startSingleSignOn(returnUrl?: string) {
  await signOut().catch(() => undefined);
  await startSso(returnUrl);
}

export async function requestPasswordReset(username: string) {
  const { resetPassword } = await import('aws-amplify/auth');
  await resetPassword({ username: username.trim() });
}

export async function confirmPasswordReset(username: string, code: string, newPassword: string) {
  const { confirmResetPassword } = await import('aws-amplify/auth');
  await confirmResetPassword({ username: username.trim(), confirmationCode: code.trim(), newPassword });
}

export async function changePassword(oldPassword: string, newPassword: string) {
  const { updatePassword } = await import('aws-amplify/auth');
  await updatePassword({ oldPassword, newPassword });
}
