import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
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

const { LoginPage, appEntered } = await import('../../src/custom/account/login-page.tsx');

const { TranslatorProvider } = await import('../../src/custom/account/translation.tsx');

const translator = {
  ...polyglotI18nProvider(() => ({ ...englishMessages, ...en }), 'en-US'),
  onLocaleChange: () => () => undefined,
};
const enterApp = vi.fn(async () => undefined);

/** The sign-in screen as the shell shows it: no react-admin around it, only the router and the translator. */
function renderLogin(initialEntry: string | { pathname: string; state: unknown } = '/login') {
  const router = createMemoryRouter(
    [{ path: '/login', element: <LoginPage companyName="Infinity Lockers" enterApp={enterApp} /> }],
    { initialEntries: [initialEntry] },
  );
  render(
    <TranslatorProvider translator={translator}>
      <RouterProvider router={router} />
    </TranslatorProvider>,
  );
  return router;
}
const notAuthorized = (message: string) => Object.assign(new Error(message), { name: 'NotAuthorizedException' });

async function atTheCodeStep() {
  amplify.startSignIn.mockResolvedValue({ step: 'code', codeMessage: 'CODE_SENT' });
  renderLogin();
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
    enterApp.mockClear();
    // A sign-in that reached the app leaves 'opening the webtool' until the layout shows; the next test starts anew.
    appEntered();
  });

  it('shows the attempt limit when wrong passwords have locked the user out', async () => {
    amplify.startSignIn.mockRejectedValue(notAuthorized('Password attempts exceeded'));
    renderLogin();
    fireEvent.change(screen.getByLabelText(/Username or email/), { target: { value: 'carrier' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo#Locker2026' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(screen.getByRole('alert').textContent).toBe('Attempt limit exceeded, please try after some time.');
  });

  it('says which required field is blank and sends nothing to the identity service, keeping what was typed', async () => {
    renderLogin();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(amplify.startSignIn).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(screen.getByLabelText(/Username or email/), { target: { value: 'carrier' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: '   ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    expect(screen.getByLabelText(/^Password/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/Username or email/).getAttribute('aria-invalid')).toBe('false');
    expect((screen.getByLabelText(/Username or email/) as HTMLInputElement).value).toBe('carrier');
    expect(amplify.startSignIn).not.toHaveBeenCalled();

    // Both there: the sign-in goes on to the code, whose blank submit is refused in the same words.
    amplify.startSignIn.mockResolvedValue({ step: 'code', codeMessage: 'CODE_SENT' });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo#Locker2026' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(amplify.startSignIn).toHaveBeenCalledWith('carrier', 'Demo#Locker2026');
    expect(screen.queryByText('This field is required')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Verify' })));
    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    expect(amplify.answerChallenge).not.toHaveBeenCalled();
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

  it('enters the app at the returnUrl once the code is right', async () => {
    amplify.startSignIn.mockResolvedValue({ step: 'code', codeMessage: 'CODE_SENT' });
    renderLogin('/login?returnUrl=%2Fservice-points%3Fpage%3D2');
    fireEvent.change(screen.getByLabelText(/Username or email/), { target: { value: 'carrier' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo#Locker2026' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    amplify.answerChallenge.mockResolvedValueOnce({ step: 'done' });
    await submitCode('123456');
    expect(enterApp).toHaveBeenCalledWith('/service-points?page=2');
  });

  it('never enters the app at another origin named by the returnUrl', async () => {
    amplify.startSignIn.mockResolvedValue({ step: 'done' });
    renderLogin('/login?returnUrl=%2F%2Fevil.example');
    fireEvent.change(screen.getByLabelText(/Username or email/), { target: { value: 'carrier' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Demo#Locker2026' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    expect(enterApp).toHaveBeenCalledWith(undefined);
  });

  it('shows the notice a redirect left for it as a toast, once', async () => {
    const router = renderLogin({
      pathname: '/login',
      state: { notice: { message: 'auth.login_expired', type: 'warning' } },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Login is expired.');
    // Dropped from the history entry: a reload of the page would not say it again.
    expect(router.state.location.state).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });
});
