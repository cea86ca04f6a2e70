import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import en from '../../locales/en-US.json';

const amplify = vi.hoisted(() => ({
  startSignIn: vi.fn(),
  answerChallenge: vi.fn(),
  startSingleSignOn: vi.fn(),
  RESEND_CODE: 'RESEND',
}));
vi.mock('../../src/authProvider/amplify-session.ts', () => amplify);

const { LoginPage } = await import('../../src/custom/account/login-page.tsx');

const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...en }), 'en-US');
const notAuthorized = (message: string) => Object.assign(new Error(message), { name: 'NotAuthorizedException' });

async function atTheCodeStep() {
  amplify.startSignIn.mockResolvedValue({ step: 'code', codeMessage: 'CODE_SENT' });
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <LoginPage companyName="Infinity Lockers" />
    </AdminContext>,
  );
  fireEvent.change(screen.getByLabelText(/Username or email/), { target: { value: 'carrier' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo#Locker2026' } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
  expect(screen.getByLabelText(/Validation code/)).toBeTruthy();
}

async function submitCode(code: string) {
  fireEvent.change(screen.getByLabelText(/Validation code/), { target: { value: code } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Verify' })));
}

const codeField = () => screen.getByLabelText(/Validation code/) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('the sign-in screen', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
    amplify.startSignIn.mockReset();
    amplify.answerChallenge.mockReset();
  });

  it('shows the attempt limit when wrong passwords have locked the user out', async () => {
    amplify.startSignIn.mockRejectedValue(notAuthorized('Password attempts exceeded'));
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <LoginPage companyName="Infinity Lockers" />
      </AdminContext>,
    );
    fireEvent.change(screen.getByLabelText(/Username or email/), { target: { value: 'carrier' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo#Locker2026' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(screen.getByRole('alert').textContent).toBe('Attempt limit exceeded, please try after some time.');
  });

  it('disables the code form while wrong codes block the account, counting down, then lets the user go on', async () => {
    await atTheCodeStep();
    amplify.answerChallenge.mockRejectedValueOnce(notAuthorized('Account is blocked for 2 minutes.'));
    await submitCode('000000');

    expect(screen.getByRole('alert').textContent).toBe('Account is blocked for 2 minutes.');
    expect(screen.getByText('You can try again in 2:00.')).toBeTruthy();
    expect(codeField().disabled).toBe(true);
    expect(button('Verify').disabled).toBe(true);
    expect(button('Send a new code').disabled).toBe(true);

    await act(async () => vi.advanceTimersByTime(61_000));
    expect(screen.getByText('You can try again in 0:59.')).toBeTruthy();
    expect(codeField().disabled).toBe(true);

    await act(async () => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText(/You can try again/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('You can go on: ask for a new code.')).toBeTruthy();
    expect(codeField().disabled).toBe(false);
    expect(button('Verify').disabled).toBe(false);

    // The same sign-in goes on: a new code, no 'Login is expired.'.
    amplify.answerChallenge.mockResolvedValueOnce({ step: 'code', codeMessage: 'OTP_REQUEST_PROCESSED' });
    await act(async () => fireEvent.click(button('Send a new code')));
    expect(amplify.answerChallenge).toHaveBeenLastCalledWith('RESEND');
    expect(screen.getByText('A new validation code has been sent.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the code form open after a wrong code that does not block', async () => {
    await atTheCodeStep();
    amplify.answerChallenge.mockResolvedValueOnce({ step: 'code', codeMessage: 'INVALID_CODE' });
    await submitCode('000000');
    expect(screen.getByRole('alert').textContent).toBe('Invalid validation code.');
    expect(codeField().disabled).toBe(false);
  });
});
