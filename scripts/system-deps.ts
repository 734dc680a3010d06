/**
 * `npm test`'s first step: the Debian packages the tests need (chromium for the report
 * tests, libxml2-utils' xmllint for JUnit schema validation, openssl for the load tests'
 * self-signed TLS host and the deployment test's CA, nginx-core for the deployment test's
 * reverse proxy, test/deploy-proxy.test.ts). Installed with apt-get when missing and we may (root, or
 * passwordless sudo); otherwise says what to install.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NEEDED: { pkg: string; file: string }[] = [
  { pkg: 'chromium', file: '/usr/bin/chromium' },
  { pkg: 'libxml2-utils', file: '/usr/bin/xmllint' },
  { pkg: 'openssl', file: '/usr/bin/openssl' },
  { pkg: 'nginx-core', file: '/usr/sbin/nginx' },
];

const missing = NEEDED.filter((n) => !existsSync(n.file)).map((n) => n.pkg);
if (missing.length === 0) process.exit(0);

const isRoot = process.getuid?.() === 0;
const sudo = !isRoot && spawnSync('sudo', ['-n', 'true']).status === 0;
if (!isRoot && !sudo) {
  process.stderr.write(
    `The tests need Debian packages: ${missing.join(' ')}\nInstall them: sudo apt-get install -y ${missing.join(' ')}\n`,
  );
  process.exit(1);
}
const run = (args: string[]) =>
  execFileSync(isRoot ? args[0]! : 'sudo', isRoot ? args.slice(1) : args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
process.stderr.write(`installing ${missing.join(' ')} with apt-get…\n`);
run(['apt-get', 'update', '-qq']);
run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
