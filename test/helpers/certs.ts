/**
 * Certificates made with openssl for a test: a private CA, and a certificate it signs for
 * localhost and 127.0.0.1 (servers that present it are trusted only with the CA given).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Certs {
  ca: string;
  cert: string;
  key: string;
}

/** A CA, and a certificate it signs for localhost and 127.0.0.1. */
export function makeCerts(dir: string): Certs {
  const f = (n: string) => join(dir, n);
  const ssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe', timeout: 20_000 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl([
    'req',
    '-x509',
    ...ec,
    '-days',
    '1',
    '-subj',
    '/CN=Conformance Test CA',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  ssl(['req', ...ec, '-subj', '/CN=localhost', '-keyout', f('server.key'), '-out', f('server.csr')]);
  writeFileSync(
    f('server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  ssl([
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    f('server.ext'),
    '-out',
    f('server.pem'),
  ]);
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}
