import { createContext, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';

/**
 * What the sign-in screens need of the app's i18n provider. They run before the admin (and
 * react-admin) is loaded, so they read it from this small context rather than from react-admin's.
 */
export interface Translator {
  translate: (key: string, options?: Record<string, unknown>) => string;
  getLocale: () => string;
  /** Calls `listener` after each change of language; returns the way to stop. */
  onLocaleChange: (listener: () => void) => () => void;
}

const TranslatorContext = createContext<Translator | undefined>(undefined);

export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/** Like react-admin's useTranslate, and a new function after each change of language. */
export function useTranslate() {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslate needs a TranslatorProvider above it.');
  const locale = useSyncExternalStore(translator.onLocaleChange, translator.getLocale);
  return useCallback(
    (key: string, options?: Record<string, unknown>) => translator.translate(key, options),
    // The locale is what makes a new translation function: the provider object stays the same.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [translator, locale],
  );
}
