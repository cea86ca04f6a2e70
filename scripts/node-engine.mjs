// Plain JavaScript so that `npm test` can check the Node version before anything needs tsx.
import semver from 'semver';

/** Why this Node cannot run the project (package.json `engines.node`), or undefined when it can. */
export function nodeVersionProblem(nodeVersion, engineRange) {
  if (semver.satisfies(nodeVersion, engineRange)) return undefined;
  return `Node.js ${nodeVersion} is too old for this project: package.json asks for ${engineRange} (README, Set-up). Install a newer Node.js and run npm ci again.`;
}

/**
 * Locked packages whose own `engines.node` refuses the oldest Node the project promises: `npm ci` warns
 * (EBADENGINE) about them and they may break at run time on that Node.
 */
export function packagesRefusingOldestNode(lockfile, engineRange) {
  const oldest = semver.minVersion(engineRange).version;
  return Object.entries(lockfile.packages ?? {})
    .filter(([path, entry]) => path !== '' && entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
    .map(
      ([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs Node ${entry.engines.node}`,
    );
}
