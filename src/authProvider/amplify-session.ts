import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, signIn, signOut, type SignInOutput } from 'aws-amplify/auth';

export interface AuthSettings {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  identityPoolId: string;
  userPoolEndpoint?: string;
  identityPoolEndpoint?: string;
}

let configured = false;

export function configureAmplify(settings: AuthSettings) {
  if (configured) return;
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

export async function currentSession(forceRefresh = false) {
  const session = await fetchAuthSession({ forceRefresh });
  if (!session.tokens?.idToken) return undefined;
  return session;
}

export async function endSession() {
  await signOut().catch(() => undefined);
}
