import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { createI18nProvider } from './app/i18n-provider.ts';

const i18nProvider = await createI18nProvider();
document.documentElement.lang = i18nProvider.getLocale().slice(0, 2);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App i18nProvider={i18nProvider} />
  </StrictMode>,
);
