import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18nProvider } from '../../src/app/i18n-provider.ts';
import { frenchComponents } from '../../src/schema/ui/component-locales.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the app i18n provider', () => {
  it('starts in English without loading French, then loads French with its component texts when chosen', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    const provider = await createI18nProvider();
    expect(provider.getLocale()).toBe('en-US');
    expect(provider.translate('auth.sign_in')).toBe('Sign in');
    expect(frenchComponents()).toBeUndefined();

    const changed = vi.fn();
    const stop = provider.onLocaleChange(changed);
    await provider.changeLocale('fr-FR');
    expect(provider.translate('auth.sign_in')).toBe('Se connecter');
    expect(provider.getLocale()).toBe('fr-FR');
    // MUI's, the pickers' and date-fns' French are there before anything renders in French.
    expect(frenchComponents()?.muiTexts.components?.MuiTablePagination?.defaultProps?.labelRowsPerPage).toBe(
      'Lignes par page :',
    );
    expect(frenchComponents()?.dateLocale.code).toBe('fr');
    expect(changed).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('wt.language')).toBe('fr-FR');

    stop();
    await provider.changeLocale('en-US');
    expect(provider.translate('auth.sign_in')).toBe('Sign in');
    expect(changed).toHaveBeenCalledTimes(1);
  });
});
