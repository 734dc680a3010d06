/**
 * The preflight: before any check, establish that the target can be judged at all — it is
 * reachable, it speaks this API (`/ping/` or `/server-info/` answer as this API does), each
 * credential works (the account token or the sign-in, each base's API token and the base
 * token it yields) and each base exists. A mistyped URL, a revoked token or a wrong base UUID
 * then costs seconds and one line naming what to fix, not a run of errors.
 *
 * It stops a run only on what cannot be a conformance finding: no answer at all, answers
 * that are not this API's on both public routes, or a credential refused (401/403/404). Any
 * other surprise (a 500, a malformed answer) is left to the checks to judge. The calls carry
 * no secret in what is said: statuses and UUIDs only. Used by `run`, `clean` and `load` (and
 * any command that talks to a given target); the embedded reference server is the harness's
 * own and needs none.
 */
import { send, type HttpResponse, type Limits } from '../client/http.js';
import { endpoint, type TargetDescriptor } from '../spec/index.js';

/** Short limits: an unreachable target must be known in seconds (connect) and a live one answers these at once. */
const LIMITS: Limits = { connectMs: 3_000, headersMs: 10_000, bodyMs: 10_000, maxBodyBytes: 1024 * 1024 };

interface PreflightFailure {
  ok: false;
  what: string;
}
type PreflightResult = { ok: true; ms: number } | (PreflightFailure & { ms: number });

/** The part of a descriptor the preflight checks (a load target may have no account and no bases). */
type Checked = Pick<TargetDescriptor, 'url'> &
  Partial<Pick<TargetDescriptor, 'account_token' | 'username' | 'password'>> & { bases?: TargetDescriptor['bases'] };

const REFUSED = new Set([401, 403]);
const ordinal = (i: number) => `${i + 1}${['st', 'nd', 'rd'][i] ?? 'th'}`;

async function get(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<HttpResponse | { ok: false; message: string }> {
  return send(
    { method: 'GET', url: new URL(path, `${url}/`).toString(), headers: { accept: 'application/json', ...headers } },
    LIMITS,
  );
}

function json(res: HttpResponse): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(res.body.toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Reachable, and at least one public route answers as this API does (a server whose ping alone is wrong is the checks' to judge). */
async function speaksApi(url: string): Promise<PreflightFailure | undefined> {
  const ping = await get(url, endpoint('ping').path);
  if (!ping.ok)
    return {
      ok: false,
      what: `the target ${url} is not reachable: ${ping.message} — check the URL (--target, or the descriptor's "url") and that the service is running`,
    };
  if (ping.status === 200 && /pong/.test(ping.body.toString('utf8'))) return undefined;
  const info = await get(url, endpoint('serverInfo').path);
  if (info.ok && info.status === 200 && typeof json(info)?.version === 'string') return undefined;
  const seen = `GET /ping/ → ${ping.status}, GET /server-info/ → ${info.ok ? info.status : info.message}`;
  return {
    ok: false,
    what: `the target ${url} answers, but not as this API does (${seen}) — check that the URL is the service's root (e.g. https://cloud.seatable.io, without a path)`,
  };
}

/** The account token, or the sign-in that yields one: refused (401/403, or a sign-in answered 400) ends the run. */
async function account(d: Checked): Promise<PreflightFailure | undefined> {
  if (d.account_token) {
    const r = await get(d.url, endpoint('listWorkspaces').path, { authorization: `Token ${d.account_token}` });
    if (r.ok && REFUSED.has(r.status))
      return {
        ok: false,
        what: `the account token is refused (${r.status}) — check the descriptor's "account_token" (or --account-token)`,
      };
    return r.ok
      ? undefined
      : { ok: false, what: `the target stopped answering while checking the account token: ${r.message}` };
  }
  if (!d.username || !d.password) return undefined;
  const r = await send(
    {
      method: 'POST',
      url: new URL(endpoint('authToken').path, `${d.url}/`).toString(),
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: d.username, password: d.password }).toString(),
    },
    LIMITS,
  );
  if (!r.ok) return { ok: false, what: `the target stopped answering while signing in: ${r.message}` };
  if (r.status === 400 || REFUSED.has(r.status))
    return {
      ok: false,
      what: `signing in as ${d.username} is refused (${r.status}) — check the descriptor's "username" and "password" (or --username/--password)`,
    };
  return undefined;
}

/** Each base: its API token yields a base token for this very base, and the base answers with that token. */
async function base(d: Checked, i: number): Promise<PreflightFailure | undefined> {
  const b = d.bases![i]!;
  const who = `base #${i + 1} (UUID ${b.uuid})`;
  const fix = (field: string) => `check the descriptor's bases[${i}].${field} (or the ${ordinal(i)} --base)`;
  const t = await get(d.url, endpoint('appAccessToken').path, { authorization: `Token ${b.api_token}` });
  if (!t.ok) return { ok: false, what: `the target stopped answering while checking ${who}: ${t.message}` };
  if (REFUSED.has(t.status) || t.status === 404)
    return { ok: false, what: `${who}: its API token is refused (${t.status}) — ${fix('api_token')}` };
  const body = t.status === 200 ? json(t) : undefined;
  const token = body?.access_token;
  if (typeof token !== 'string') return undefined; // an answer the checks judge (AUTH-3)
  if (typeof body?.dtable_uuid === 'string' && body.dtable_uuid.replace(/-/g, '') !== b.uuid.replace(/-/g, '')) {
    return {
      ok: false,
      what: `${who}: its API token belongs to another base (UUID ${body.dtable_uuid}) — ${fix('uuid')}`,
    };
  }
  const m = await get(d.url, endpoint('getMetadata').path.replace('{base_uuid}', b.uuid), {
    authorization: `Bearer ${token}`,
  });
  if (!m.ok) return { ok: false, what: `the target stopped answering while checking ${who}: ${m.message}` };
  if (m.status === 404) return { ok: false, what: `${who} does not exist (404) — ${fix('uuid')}` };
  if (REFUSED.has(m.status))
    return {
      ok: false,
      what: `${who}: the base token its API token yields is refused (${m.status}) — ${fix('uuid')} and that the API token is this base's`,
    };
  return undefined;
}

/** Run the preflight; the first failure ends it. */
export async function preflightTarget(d: Checked): Promise<PreflightResult> {
  const t0 = performance.now();
  const done = (f?: PreflightFailure): PreflightResult => ({
    ...(f ?? { ok: true as const }),
    ms: Math.round(performance.now() - t0),
  });
  const api = await speaksApi(d.url);
  if (api) return done(api);
  const acct = await account(d);
  if (acct) return done(acct);
  for (let i = 0; i < (d.bases?.length ?? 0); i++) {
    const f = await base(d, i);
    if (f) return done(f);
  }
  return done();
}
