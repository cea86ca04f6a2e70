// The test command installs what it needs from Debian's packages when it runs as root (CI on a
// fresh machine) and that is missing; a developer's machine is left as it is.
import { execFileSync } from 'node:child_process';

export const runsAsRoot = () => process.getuid?.() === 0;

/** apt-get install of the packages named, in one call; false when not root, so the caller can say what to do instead. */
export function installDebianPackage(...names) {
  if (!runsAsRoot()) return false;
  console.log(`Installing Debian ${names.join(' and ')} with apt-get ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...names], { stdio: 'inherit', env });
  return true;
}
