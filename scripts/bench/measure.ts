/** One line of the report table. */
export interface BenchResult {
  name: string;
  ours: string;
  baseline: string;
  /** ours / baseline; lower is better. */
  ratio: number;
  target: string;
  pass: boolean;
  /** What the figures include, and any breakdown worth printing under the table. */
  notes: string[];
}

/** The result of a benchmark judged by its ratio to the baseline (lower is better). */
export function ratioResult(
  name: string,
  ours: number,
  baseline: number,
  targetRatio: number,
  notes: string[],
  unit: (value: number) => string = ms,
): BenchResult {
  const ratio = ours / baseline;
  return {
    name,
    ours: unit(ours),
    baseline: unit(baseline),
    ratio,
    target: `<= ${targetRatio}x`,
    pass: ratio <= targetRatio,
    notes,
  };
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Nearest-rank percentile. */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;

/**
 * Runs `ours` and `baseline` alternately, `runs` times each after one warm-up of each, so that
 * both see the same machine load, JIT state and garbage collector pressure.
 */
export async function alternate(
  runs: number,
  ours: () => unknown,
  baseline: () => unknown,
): Promise<{ ours: number[]; baseline: number[] }> {
  const times = { ours: [] as number[], baseline: [] as number[] };
  await ours();
  await baseline();
  const timed = async (which: keyof typeof times, work: () => unknown) => {
    const start = performance.now();
    await work();
    times[which].push(performance.now() - start);
  };
  for (let run = 0; run < runs; run += 1) {
    // Swapping who goes first each run cancels any advantage of going first.
    if (run % 2) {
      await timed('baseline', baseline);
      await timed('ours', ours);
    } else {
      await timed('ours', ours);
      await timed('baseline', baseline);
    }
  }
  return times;
}
