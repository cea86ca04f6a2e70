import { Route } from 'react-router-dom';
import { ForgotPasswordPage } from '../custom/account/forgot-password-page.tsx';
import { ConfirmPasswordPage } from '../custom/account/confirm-password-page.tsx';

/** The password screens, served alike by the shell and, once it is loaded, by the admin. */
export function authRoutes(companyName: string) {
  return [
    <Route key="forgot-password" path="/forgot-password" element={<ForgotPasswordPage companyName={companyName} />} />,
    <Route
      key="confirm-password"
      path="/confirm-password"
      element={<ConfirmPasswordPage companyName={companyName} />}
    />,
  ];
}
