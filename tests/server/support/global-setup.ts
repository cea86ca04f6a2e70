import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSeededTemplate } from './seeded-template.ts';

const folder = '.tmp/vitest';

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Dumps left by runs that were killed before their teardown (each is named by its run's pid). */
function removeStaleDumps() {
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^seeded-(\d+)-/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(path.join(folder, name), { force: true });
  }
}

/**
 * Server project's global setup: the seeded database is built once for the whole run, on PGlite or
 * on the PostgreSQL server of DATABASE_URL, and every test file copies it (startStack,
 * openSeededTestDb) instead of migrating and seeding its own. It holds the seed's `test` size
 * (server/seed SEED_SIZES): the demo's kinds of records on a fifth of its service points, so that
 * every file's copy is small; a test that needs the demo's volume seeds it itself (seed-validity).
 */
export default async function setup(project: TestProject) {
  removeStaleDumps();
  const built = await buildSeededTemplate({ adminUrl: process.env.DATABASE_URL || undefined, folder });
  console.log(
    `Seeded template (${built.template.engine}, test seed) built once for the run in ${(built.ms / 1000).toFixed(1)} s`,
  );
  project.provide('seededTemplate', built.template);
  return () => built.remove();
}
