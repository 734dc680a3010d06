/**
 * Redaction: no secret reaches a report, log or artefact. Secrets are registered as they
 * are learnt (descriptor credentials, tokens the target hands out — any value of a
 * credential field or header passing through here is learnt too); credential-bearing
 * headers, form fields and JSON fields are masked whatever their value.
 *
 * A test worker learns tokens the runner never sees (each worker obtains its own base
 * tokens). With `CONFHARNESS_SECRETS_FILE` set, every newly learnt secret is appended to
 * that private file so the runner can scrub the phase's terminal output and blob reports.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { SecretFinder } from './secret-finder.js';
import { harnessEnv } from '../common/harness-env.js';

export const MASK = '«redacted»';
const secrets = new Set<string>();
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-seatable-signature', 'x-seafile-otp']);
const SECRET_FIELDS =
  /^(password|token|access_token|api_token|account_token|secret|auth_token|external_link|app_token)$/i;
/** File-server links whose path carries the credential (`/seafhttp/upload-api/<token>`, `/seafhttp/files/<token>/name`). */
const LINK_FIELDS = /^(upload_link|download_link)$/i;
const LINK_TOKEN = /^[0-9a-f-]{16,}$/i;
/** Shorter values are too likely to occur by chance (a status, a small number) to be replaced everywhere. */
const MIN_SECRET = 6;

export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET || value === MASK || secrets.has(value)) return;
  secrets.add(value);
  matcher = undefined;
  const file = harnessEnv('secretsFile');
  if (file) {
    try {
      appendFileSync(file, `${Buffer.from(value).toString('base64')}\n`, { mode: 0o600 });
    } catch (e) {
      // Unrecorded, the runner could not scrub this secret from the phase's output and blob
      // reports: the call that learnt it fails (an ERROR of its check) rather than risk it there.
      throw new Error(
        `a learnt secret could not be recorded in ${file} for the runner to scrub: ${(e as Error).message}`,
      );
    }
  }
}

/** Learn the secrets another process appended to `file`; returns how many bytes were read. */
export function loadSecretsFile(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  for (const line of text.split('\n')) if (line) registerSecret(Buffer.from(line, 'base64').toString('utf8'));
  return text.length;
}

export function knownSecrets(): readonly string[] {
  return [...secrets];
}

/** The secrets longest first, and a finder that says at once whether a text holds any (most hold none). Rebuilt when a secret is learnt. */
interface Matcher {
  sorted: string[];
  finder: SecretFinder;
}
let matcher: Matcher | undefined;
function currentMatcher(): Matcher | undefined {
  if (secrets.size === 0) return undefined;
  if (!matcher) {
    const sorted = [...secrets].sort((a, b) => b.length - a.length);
    matcher = { sorted, finder: new SecretFinder(sorted, MIN_SECRET) };
  }
  return matcher;
}

/** Could this text hold a known secret, as is or JSON-escaped? False is certain. */
export function mayHoldSecret(text: string): boolean {
  return !!currentMatcher()?.finder.inText(text);
}

export function redactText(text: string): string {
  const m = currentMatcher();
  if (!m?.finder.inText(text)) return text;
  let out = text;
  // Longest first: a secret that contains another is replaced whole.
  for (const s of m.sorted) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

/** The same, on bytes (attachments of any type); unchanged input comes back as is. */
export function redactBytes(buf: Buffer): Buffer {
  const m = currentMatcher();
  if (!m?.finder.inBytes(buf)) return buf;
  let out = buf;
  for (const s of m.sorted) {
    const needle = Buffer.from(s);
    if (out.indexOf(needle) < 0) continue;
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, from)) {
      parts.push(out.subarray(from, at), Buffer.from(MASK));
      from = at + needle.length;
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}

export function redactHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    if (SECRET_HEADERS.has(k.toLowerCase())) {
      const m = /^(\w+\s+)?(.*)$/.exec(value)!;
      registerSecret(m[2]);
      out[k] = `${m[1] ?? ''}${MASK}`;
    } else out[k] = redactText(value);
  }
  return out;
}

/** Deep copy with secret fields masked (and their values learnt) and known secrets replaced. */
function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactText(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (LINK_FIELDS.test(k) && typeof x === 'string')
          for (const seg of x.split(/[/?#]/)) if (LINK_TOKEN.test(seg)) registerSecret(seg);
        if (!SECRET_FIELDS.test(k) || (typeof x !== 'string' && typeof x !== 'number')) return [k, redactValue(x)];
        registerSecret(String(x));
        return [k, MASK];
      }),
    );
  }
  return v;
}

/** Redact a body given as text: JSON is masked field by field, forms by field, anything else by known secrets. */
export function redactBody(text: string, contentType = ''): string {
  if (/json/i.test(contentType) || /^\s*[{[]/.test(text)) {
    try {
      return JSON.stringify(redactValue(JSON.parse(text)));
    } catch {
      // not JSON after all
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) {
    const p = new URLSearchParams(text);
    for (const [k, v] of [...p.entries()])
      if (SECRET_FIELDS.test(k)) {
        registerSecret(v);
        p.set(k, MASK);
      }
    return redactText(p.toString());
  }
  return redactText(text);
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const [k, v] of [...u.searchParams.entries()])
      if (SECRET_FIELDS.test(k)) {
        registerSecret(v);
        u.searchParams.set(k, MASK);
      }
    return redactText(u.toString());
  } catch {
    return redactText(url);
  }
}
