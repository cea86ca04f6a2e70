/** The two networks a seed can write: the demo's volume (`npm start`) or the tests' smaller one (see SEED_SIZES). */
export type SeedSize = 'demo' | 'test';
export const isSeedSize = (value: unknown): value is SeedSize => value === 'demo' || value === 'test';
