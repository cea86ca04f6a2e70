export function nodeVersionProblem(nodeVersion: string, engineRange: string): string | undefined;
export function packagesRefusingOldestNode(
  lockfile: { packages?: Record<string, { version?: string; engines?: { node?: string } }> },
  engineRange: string,
): string[];
