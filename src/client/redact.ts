/**
 * Redaction: no secret reaches a report, log or artefact. Secrets are registered as they
 * are learnt (descriptor credentials, tokens the target hands out); credential-bearing
 * headers, form fields and JSON fields are masked whatever their value.
 */
export const MASK = '«redacted»';
const secrets = new Set<string>();
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-seatable-signature', 'x-seafile-otp']);
const SECRET_FIELDS = /^(password|token|access_token|api_token|account_token|secret|auth_token|external_link|app_token)$/i;

export function registerSecret(value: string | undefined | null): void {
  if (typeof value === 'string' && value.length >= 6) secrets.add(value);
}

export function knownSecrets(): readonly string[] {
  return [...secrets];
}

export function redactText(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

export function redactHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? value.replace(/^(\w+\s+)?.*$/, (_, scheme: string | undefined) => `${scheme ?? ''}${MASK}`) : redactText(value);
  }
  return out;
}

/** Deep copy with secret fields masked and known secrets replaced. */
export function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactText(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_FIELDS.test(k) && (typeof x === 'string' || typeof x === 'number') ? MASK : redactValue(x)]));
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
    for (const k of [...p.keys()]) if (SECRET_FIELDS.test(k)) p.set(k, MASK);
    return redactText(p.toString());
  }
  return redactText(text);
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const k of [...u.searchParams.keys()]) if (SECRET_FIELDS.test(k)) u.searchParams.set(k, MASK);
    return redactText(u.toString());
  } catch {
    return redactText(url);
  }
}
