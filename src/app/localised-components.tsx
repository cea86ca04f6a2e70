import { useCallback, type ReactNode } from 'react';
import { createTheme, ThemeProvider, type Theme } from '@mui/material/styles';
import { enUS } from '@mui/material/locale';
import { useLocaleState } from 'react-admin';
import { frenchComponents } from '../schema/ui/component-locales.ts';

/** MUI's own texts (pager, autocomplete, alert close) in the app's language; French is loaded with it. */
const componentTexts = (locale: string) => (locale === 'fr-FR' ? frenchComponents()?.muiTexts : undefined) ?? enUS;

/**
 * MUI components carry English texts of their own ("Go to next page", "1–25 of 41", "No options")
 * unless the theme holds a locale. The app's language can change while signed in, so the locale
 * is laid over react-admin's theme here, below its theme provider, rather than fixed in the theme.
 */
export function LocalisedComponents({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const theme = useCallback((outer: Theme) => createTheme(outer, componentTexts(locale)), [locale]);
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
