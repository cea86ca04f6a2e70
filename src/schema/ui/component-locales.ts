type FrenchComponents = typeof import('./french-components.ts');

let loaded: FrenchComponents | undefined;

/**
 * Loads the French texts of MUI, the MUI X pickers and date-fns. The app's i18n provider awaits it
 * with the French messages, before the app switches to French (or first renders in French), so the
 * components read them synchronously below and never show English first.
 */
export async function loadFrenchComponents(): Promise<FrenchComponents> {
  loaded ??= await import('./french-components.ts');
  return loaded;
}

/** The French texts once loaded; undefined before (the app is then not in French). */
export function frenchComponents(): FrenchComponents | undefined {
  return loaded;
}
