import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, packagesRefusingOldestNode } from '../../scripts/node-engine.mjs';

const engineRange: string = JSON.parse(readFileSync('package.json', 'utf8')).engines.node;

describe('the Node version the README promises', () => {
  it('is what package.json engines ask for', () => {
    expect(engineRange).toBe('>=20.19');
    expect(readFileSync('README.md', 'utf8')).toContain('Node.js 20.19 or newer');
  });

  it('is enough for every locked package, so npm ci prints no EBADENGINE warning', () => {
    const lockfile = JSON.parse(readFileSync('package-lock.json', 'utf8'));
    expect(packagesRefusingOldestNode(lockfile, engineRange)).toEqual([]);
  });

  it('names a locked package that needs a newer Node', () => {
    const lockfile = {
      packages: {
        '': { version: '3.7.2', engines: { node: '>=20.19' } },
        'node_modules/@fastify/static/node_modules/content-disposition': {
          version: '3.0.0',
          engines: { node: '>=22' },
        },
        'node_modules/cookie': { version: '1.1.1', engines: { node: '>=18' } },
      },
    };
    expect(packagesRefusingOldestNode(lockfile, engineRange)).toEqual(['content-disposition@3.0.0 needs Node >=22']);
  });

  it('stops the test command on an older Node with a clear message', () => {
    expect(nodeVersionProblem('20.18.3', engineRange)).toMatch(/Node\.js 20\.18\.3 is too old .* >=20\.19/);
    expect(nodeVersionProblem('20.19.0', engineRange)).toBeUndefined();
    expect(nodeVersionProblem('22.12.0', engineRange)).toBeUndefined();
  });
});
