import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { createI18nProvider } from './app/i18n-provider.ts';

// Not a top-level await: the lazy chunks import shared code from the entry, which would wait on
// them (French at start) while it waits on itself.
void createI18nProvider().then((i18nProvider) => {
  document.documentElement.lang = i18nProvider.getLocale().slice(0, 2);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App i18nProvider={i18nProvider} />
    </StrictMode>,
  );
});
