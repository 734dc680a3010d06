/**
 * Whom the harness's HTTP clients trust over TLS, one setting for all of them (the run's
 * undici client and bare sockets, the official client's axios, the load engines, clean,
 * diff): the system roots plus a private CA given as a PEM file (`--ca-file`,
 * CONFORMANCE_CA_FILE, a descriptor's `ca_file`), or no verification at all (`--insecure`).
 * Set once per process with `setTrust` before the first request; Playwright workers and k6
 * are other processes and are handed the same setting (the run's state file; SSL_CERT_FILE).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

export interface TlsTrust {
  /** A PEM file of one or more CA certificates, trusted besides the system roots. */
  caFile?: string;
  /** Verify nothing (self-signed test hosts). */
  insecure: boolean;
}

/** Where Debian, Ubuntu and Alpine keep the system's roots; elsewhere Node's own copy of Mozilla's stands in. */
const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The roots a program reading SSL_CERT_FILE trusts now: the file the environment names, else the system's. */
function systemRoots(): string {
  for (const f of [process.env.SSL_CERT_FILE, SYSTEM_BUNDLE]) {
    if (f && existsSync(f)) {
      try {
        return readFileSync(f, 'utf8');
      } catch {
        /* unreadable: the next one */
      }
    }
  }
  return rootCertificates.join('\n');
}

let current: TlsTrust = { insecure: false };
/** CA file → the roots plus its certificates, read once. */
const trusted = new Map<string, string[]>();

/** Node's own extra CAs (NODE_EXTRA_CA_CERTS): an explicit `ca` list, or a program that is not Node, would drop them. */
function nodeExtras(): string[] {
  const f = process.env.NODE_EXTRA_CA_CERTS;
  if (!f) return [];
  try {
    return readCaFile(f);
  } catch {
    return [];
  } // Node itself only warns about an unreadable one
}

function rootsAnd(caFile: string): string[] {
  let list = trusted.get(caFile);
  if (!list) trusted.set(caFile, (list = [...new Set([...rootCertificates, ...nodeExtras(), ...readCaFile(caFile)])]));
  return list;
}

const pemsOf = (text: string): string[] =>
  text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

/** The certificates of a PEM file; an error naming the file when it holds none or one is not a certificate. */
export function readCaFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(
      `CA file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  const certs = pemsOf(text);
  if (!certs.length) throw new Error(`CA file ${file}: no PEM certificate in it (-----BEGIN CERTIFICATE-----)`);
  for (const [i, pem] of certs.entries()) {
    try {
      new X509Certificate(pem);
    } catch (e) {
      throw new Error(`CA file ${file}: certificate ${i + 1} does not parse: ${(e as Error).message}`);
    }
  }
  return certs;
}

/** This process's trust from now on; the CA file is read (and refused when unreadable) here, once. */
export function setTrust(t: TlsTrust): void {
  if (t.caFile && !t.insecure) rootsAnd(t.caFile);
  current = { ...t };
}

export function currentTrust(): TlsTrust {
  return { ...current };
}

/**
 * Options for `tls.connect` and undici's `connect`: verification on or off, and the CAs when
 * a file is given (`ca` replaces the default roots, so the roots are part of it).
 */
export function tlsConnectOptions(t: TlsTrust = current): { rejectUnauthorized: boolean; ca?: string[] } {
  if (t.insecure) return { rejectUnauthorized: false };
  if (!t.caFile) return { rejectUnauthorized: true };
  return { rejectUnauthorized: true, ca: rootsAnd(t.caFile) };
}

const agents = new Map<string, HttpsAgent>();

/** A node:https agent with this process's trust, for clients built on node:https (axios). */
export function httpsAgent(t: TlsTrust = current): HttpsAgent {
  const key = `${t.insecure}/${t.caFile ?? ''}`;
  let a = agents.get(key);
  if (!a) agents.set(key, (a = new HttpsAgent({ keepAlive: true, ...tlsConnectOptions(t) })));
  return a;
}

/**
 * A PEM bundle for a program that is not Node and reads one file in place of the system's
 * (k6, a Go program: SSL_CERT_FILE): the system roots (or the SSL_CERT_FILE already set) plus the CA file (and Node's
 * NODE_EXTRA_CA_CERTS, which the built-in engine honours). Returns its path; undefined when
 * there is nothing to add to the system's roots.
 */
export function writeCaBundle(t: TlsTrust, file: string): string | undefined {
  if (t.insecure) return undefined;
  const extra = [...nodeExtras(), ...(t.caFile ? readCaFile(t.caFile) : [])];
  if (!extra.length) return undefined;
  // Deduplicated: NODE_EXTRA_CA_CERTS often names the system's bundle itself.
  const all = new Set([...pemsOf(systemRoots()), ...extra]);
  writeFileSync(file, `${[...all].join('\n')}\n`);
  return file;
}

/** How a header or report says it: e.g. "TLS verified (system roots and CA file ca.pem)". */
export function trustWords(t: TlsTrust = current): string {
  if (t.insecure) return 'TLS certificate NOT verified (--insecure)';
  const all = [
    'system roots',
    ...(process.env.NODE_EXTRA_CA_CERTS ? ['NODE_EXTRA_CA_CERTS'] : []),
    ...(t.caFile ? [`CA file ${t.caFile}`] : []),
  ];
  return `TLS verified (${all.length > 1 ? `${all.slice(0, -1).join(', ')} and ${all.at(-1)!}` : all[0]!})`;
}
