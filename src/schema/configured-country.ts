/**
 * The country the tool is configured for, as an ISO code (spec 01 §9: PL in the shown settings), from
 * `VITE_COUNTRY` at build time. Phone numbers typed without their country prefix are read in it.
 */
const env = (import.meta as { env?: Record<string, string | undefined> }).env;
export const configuredCountry: string = env?.VITE_COUNTRY ?? 'PL';
