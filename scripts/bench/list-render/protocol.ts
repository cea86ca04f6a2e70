/** What the page offers the runner (scripts/bench/list-render.ts) on `window`. */
export type RenderKind = 'engine' | 'plain';

/** The list the page renders, by `?list=` (service points when left out). */
export type BenchList = 'service-points' | 'location-owners';

export interface BenchWindow {
  benchRender(kind: RenderKind): Promise<number>;
  benchColumns: number;
  benchRows: number;
}
