import type { TestProject } from 'vitest/node';
import { buildSeededTemplate } from './seeded-template.ts';

/**
 * Server project's global setup: the seeded demo database is built once for the whole run, on
 * PGlite or on the PostgreSQL server of DATABASE_URL, and every test file copies it (startStack,
 * openSeededTestDb) instead of migrating and seeding its own.
 */
export default async function setup(project: TestProject) {
  const built = await buildSeededTemplate({ adminUrl: process.env.DATABASE_URL || undefined, folder: '.tmp/vitest' });
  console.log(`Seeded template (${built.template.engine}) built once for the run in ${(built.ms / 1000).toFixed(1)} s`);
  project.provide('seededTemplate', built.template);
  return () => built.remove();
}
