/**
 * npm run bench (not part of npm test): the benchmarks below, each against a baseline measured in the
 * same run and process, printed as one table. A MISS is a finding, not a failure: the exit code is
 * 0 unless a benchmark crashes. `npm run bench -- gateway export` runs only the ones named.
 */
import { cpus, loadavg } from 'node:os';
import { csvExportBench } from './csv-export.ts';
import { dashboardBench } from './dashboard.ts';
import { entryBench } from './entry.ts';
import { firstScreenBench } from './first-screen.ts';
import { gatewayListBench } from './gateway-list.ts';
import { importValidationBench } from './import-validation.ts';
import { listRenderBench } from './list-render.ts';
import { liveBench, liveTwoProcessBench } from './live.ts';
import { locationGeneratorBench } from './location-generator.ts';
import { searchBench } from './search.ts';
import { mapBench } from './map.ts';
import type { BenchResult } from './measure.ts';

const benchmarks: Record<string, () => Promise<BenchResult>> = {
  export: () => csvExportBench(),
  import: () => importValidationBench(),
  render: () => listRenderBench(),
  partners: () => listRenderBench('location-owners'),
  gateway: () => gatewayListBench(),
  dashboard: () => dashboardBench(),
  entry: () => entryBench(),
  screen: () => firstScreenBench(),
  generator: () => locationGeneratorBench(),
  search: () => searchBench(),
  live: () => liveBench(),
  'live-pg': () => liveTwoProcessBench(),
  map: () => mapBench(),
};

function table(results: BenchResult[]): string {
  const header = ['Benchmark', 'Ours', 'Baseline', 'Ratio', 'Target', 'Result'];
  const lines = results.map((r) => [
    r.name,
    r.ours,
    r.baseline,
    `${r.ratio.toFixed(2)}x`,
    r.target,
    r.pass ? 'PASS' : 'MISS',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const row = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [row(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.map(row)].join('\n');
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in benchmarks));
  if (unknown.length)
    throw new Error(`Unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(benchmarks).join(', ')}`);
  const cpu = cpus();
  console.log(
    `Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), load average ${loadavg()[0].toFixed(2)}`,
  );
  const results: BenchResult[] = [];
  for (const [name, bench] of Object.entries(benchmarks)) {
    if (wanted.length && !wanted.includes(name)) continue;
    const started = performance.now();
    console.log(`\n${name}: running ...`);
    const result = await bench();
    console.log(`${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    results.push(result);
  }
  console.log(`\n${table(results)}\n`);
  for (const result of results) {
    console.log(`${result.name}`);
    for (const note of result.notes) console.log(`  ${note}`);
  }
  console.log(`\nLoad average at the end: ${loadavg()[0].toFixed(2)} (other work on the machine skews the figures).`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
