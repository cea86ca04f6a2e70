/** What the page offers the runner (scripts/bench/list-render.ts) on `window`. */
export type RenderKind = 'engine' | 'plain';

export interface BenchWindow {
  benchRender(kind: RenderKind): Promise<number>;
  benchColumns: number;
}
