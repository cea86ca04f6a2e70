/**
 * A text kept per app language next to its default (`x-localised-by`, e.g. a role's description):
 * the version in `locale` when one was written, else the default. The default stays what rules read
 * (a super admin's description contains 'Super', spec 01 §6), whatever language the user reads.
 */
export function localisedText(
  defaultText: string | undefined,
  translations: unknown,
  locale: string,
): string | undefined {
  const translated =
    translations && typeof translations === 'object' ? (translations as Record<string, unknown>)[locale] : undefined;
  return typeof translated === 'string' && translated.trim() !== '' ? translated : defaultText;
}
