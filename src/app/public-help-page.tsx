import { I18nContext, type I18nProvider } from 'react-admin';
import { HelpPage } from '../custom/help/help-page.tsx';

/** The public help page without the admin: react-admin's translation context is all it needs. */
export function PublicHelpPage({
  i18nProvider,
  filesBase,
  companyName,
}: {
  i18nProvider: I18nProvider;
  filesBase: string;
  companyName: string;
}) {
  return (
    <I18nContext.Provider value={i18nProvider}>
      <HelpPage filesBase={filesBase} companyName={companyName} />
    </I18nContext.Provider>
  );
}
