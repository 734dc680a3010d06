/**
 * Fault coverage, per check (the idea of Stryker's per-test coverage): during a clean run the
 * reference server records which fault switches each check *queried* — `ctx.faults.has(x)`
 * is evaluated exactly where fault x would change behaviour — and which routes it requested.
 * A check that never reached fault x cannot tell a server with x from one without it, so a
 * mutant need only run the checks that did; every other check keeps its clean verdict.
 *
 * Conservative by construction: a fault queried outside any check (run setup, background
 * work) or never queried at all selects every check — but for the few whose reach in run
 * setup no check can see (src/server/faults.ts `SETUP_INERT`, each with why). A fault a server reads at start-up
 * (its limits) selects the checks that called that server (all, if run setup did). Route
 * faults are decided at start-up, so they select the checks that requested the route they change.
 * Calls carry the check's title (src/harness/target.ts `tagCalls`); the server side needs no
 * change: its HTTP listener runs inside an AsyncLocalStorage holding the tag.
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { CALL_TAG_HEADER, SWEEP_TAG } from '../harness/target.js';
import { SUITE_SUFFIX } from '../spec/layout.js';
import type { RunningServer } from '../server/index.js';
import { SETUP_INERT, type FaultName } from '../server/faults.js';
import { zombieRoutes } from '../server/routes/zombies.js';
import { ENDPOINTS } from '../spec/index.js';

export const UNTAGGED = '(outside any check)';
/** Distinct requests kept per check: enough for route matching, bounded for rate bursts. */
const MAX_REQUESTS_PER_CHECK = 500;

export interface Coverage {
  schemaVersion: 1;
  /** Fault switches each check (by title) queried; `UNTAGGED` for queries outside checks. */
  faults: Record<string, string[]>;
  /** `METHOD /path` each check requested, token-like path segments replaced by `:x`. */
  requests: Record<string, string[]>;
  /** Per embedded server: the faults it read at start-up, and the checks (tags) that called it. */
  servers?: { startup: string[]; tags: string[] }[];
}

/** Path segments that may be tokens or ids (long, with a digit) are not kept: coverage files are artefacts. */
const tokenLike = (s: string) => s.length >= 16 && /\d/.test(s) && /^[A-Za-z0-9_.%-]+$/.test(s);
const normalise = (path: string) =>
  path
    .split('/')
    .map((s) => (tokenLike(s) ? ':x' : s))
    .join('/');

/** A response cache that never answers (see recordCoverage). */
class NeverHit<K, V> extends Map<K, V> {
  override get(): V | undefined {
    return undefined;
  }
}

/** Record coverage of `servers` (a run's embedded servers); written to `file` when each closes. */
export function recordCoverage(servers: RunningServer[], file: string): void {
  const als = new AsyncLocalStorage<string>();
  const faults = new Map<string, Set<string>>();
  const requests = new Map<string, Set<string>>();
  const add = (m: Map<string, Set<string>>, k: string, v: string, cap = Infinity) => {
    let s = m.get(k);
    if (!s) m.set(k, (s = new Set()));
    if (s.size < cap) s.add(v);
  };
  const callers = servers.map(() => new Set<string>());
  const write = () => {
    const obj = (m: Map<string, Set<string>>) => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]));
    const perServer = servers.map((s, i) => ({
      startup: [...new Set(s.ctx.limits.startupFaults)].sort(),
      tags: [...callers[i]!].sort(),
    }));
    const cov: Coverage = { schemaVersion: 1, faults: obj(faults), requests: obj(requests), servers: perServer };
    writeFileSync(file, JSON.stringify(cov, null, 1));
  };
  for (const [i, srv] of servers.entries()) {
    // A cached answer would hide the fault queries of its computation from the later checks
    // it is served to: the clean run computes every answer (same answers, attributed right).
    srv.ctx.responseCache = new NeverHit();
    srv.ctx.faultReadsWatched = true;
    const set = srv.ctx.faults as Set<string>;
    const has = Set.prototype.has;
    set.has = (name: string) => {
      add(faults, als.getStore() ?? UNTAGGED, name);
      return has.call(set, name);
    };
    const http = srv.app.server;
    const listeners = http.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    http.removeAllListeners('request');
    const tagOf = (req: IncomingMessage) => {
      const raw = req.headers[CALL_TAG_HEADER];
      const tag = typeof raw === 'string' ? decodeURIComponent(raw) : UNTAGGED;
      add(requests, tag, `${req.method} ${normalise((req.url ?? '/').split('?')[0]!)}`, MAX_REQUESTS_PER_CHECK);
      callers[i]!.add(tag);
      return tag;
    };
    // CONNECT never reaches the request listeners: Node hands it to `connect` (ROBUST-5).
    const connectListeners = http.listeners('connect') as ((
      req: IncomingMessage,
      socket: Duplex,
      head: Buffer,
    ) => void)[];
    http.removeAllListeners('connect');
    http.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const tag = tagOf(req);
      als.run(tag, () => {
        for (const l of connectListeners) l.call(http, req, socket, head);
      });
    });
    http.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const tag = tagOf(req);
      als.run(tag, () => {
        // The body arrives in the socket's async context, not the request's: bound here, the
        // body parsers (and the fault switches they query) stay attributed to the check.
        req.emit = AsyncResource.bind(req.emit.bind(req));
        for (const l of listeners) l.call(http, req, res);
      });
    });
    const close = srv.close.bind(srv);
    srv.close = async () => {
      write();
      await close();
    };
  }
}

/** The coverage of several runs of the same checks, as one (undefined when the first has none). */
export function mergeCoverage(runs: readonly (Coverage | undefined)[]): Coverage | undefined {
  const [first, ...more] = runs;
  if (!first) return undefined;
  const union = (a: Record<string, string[]>, b: Record<string, string[]>) => {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = [...new Set([...(out[k] ?? []), ...v])].sort();
    return out;
  };
  return more.reduce<Coverage>(
    (acc, c) =>
      c
        ? {
            schemaVersion: 1,
            faults: union(acc.faults, c.faults),
            requests: union(acc.requests, c.requests),
            servers: [...(acc.servers ?? []), ...(c.servers ?? [])],
          }
        : acc,
    first,
  );
}

export type Selection =
  { kind: 'all'; reason: string } | { kind: 'some'; titles: string[] } | { kind: 'none'; reason: string };

/** A route pattern (`{param}`, `:param`, `*`) as a regular expression over normalised paths. */
function routeRe(method: string, pattern: string): RegExp {
  const body = pattern
    .replace(/\/$/, '')
    .split(/(\{\w+\}|:\w+|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (/^(\{\w+\}|:\w+)$/.test(part)) return '[^/]+';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${method} ${body}/?$`);
}

/** The routes a registration-time fault adds or removes; undefined for a behaviour fault. */
function routesOf(fault: string): RegExp[] | undefined {
  const [prefix, arg] = fault.split(/:(.*)/s) as [string, string | undefined];
  if (arg === undefined) return undefined;
  if (prefix === 'drop' || prefix === 'serve' || prefix === 'refuse') {
    const ep = ENDPOINTS.find((e) => e.id === arg);
    return ep ? [routeRe(ep.method, ep.path)] : [];
  }
  if (prefix === 'zombie') return zombieRoutes(arg).map((r) => routeRe(r.method, r.url));
  return undefined;
}

/**
 * Checks that share data through worker-scoped fixtures (one check writes the rows others
 * read) are selected together: a fault met while one builds the shared data reaches them all.
 * `files` maps each check title to its suite file and lists the files whose checks share data.
 */
interface SharedFiles {
  fileOf: ReadonlyMap<string, string>;
  shared: ReadonlySet<string>;
}

export function widen(sel: Selection, files: SharedFiles | undefined): Selection {
  if (sel.kind !== 'some' || !files) return sel;
  const hit = new Set(
    sel.titles.map((t) => files.fileOf.get(t)).filter((f): f is string => !!f && files.shared.has(f)),
  );
  if (hit.size === 0) return sel;
  const titles = new Set(sel.titles);
  for (const [title, file] of files.fileOf) if (hit.has(file)) titles.add(title);
  return { kind: 'some', titles: [...titles].sort() };
}

/** Suite files with worker-scoped fixtures (`scope: 'worker'`, or `withWorld` of src/harness/test.ts): their checks share data. */
export function sharedStateFiles(suitesDir: string): Set<string> {
  return new Set(
    readdirSync(suitesDir).filter(
      (f) =>
        f.endsWith(SUITE_SUFFIX) &&
        /scope:\s*['"]worker['"]|\bwithWorld\(/.test(readFileSync(join(suitesDir, f), 'utf8')),
    ),
  );
}

/**
 * Whether anything in the run recorded in `cov` could have met one of `faults`: a behaviour
 * switch read anywhere (in a check, outside any, at start-up), or a route fault at all (its
 * routes are decided at start-up). A switch never read changed nothing in that run.
 */
export function readAnywhere(cov: Coverage, faults: readonly string[]): boolean {
  return faults.some(
    (f) =>
      routesOf(f) !== undefined ||
      Object.values(cov.faults).some((list) => list.includes(f)) ||
      (cov.servers ?? []).some((s) => s.startup.includes(f)),
  );
}

/** The checks a mutant with `faults` can affect, by what they reached in the clean run. */
export function selectChecks(cov: Coverage, faults: readonly string[]): Selection {
  const titles = new Set<string>();
  for (const f of faults) {
    const routes = routesOf(f);
    if (routes) {
      if (routes.length === 0) return { kind: 'all', reason: `${f}: unknown route` };
      for (const [tag, reqs] of Object.entries(cov.requests)) {
        if (tag === SWEEP_TAG || !reqs.some((r) => routes.some((re) => re.test(r)))) continue;
        if (tag === UNTAGGED) return { kind: 'all', reason: `${f}: the route is called outside any check (run setup)` };
        titles.add(tag);
      }
      continue;
    }
    if (cov.faults[UNTAGGED]?.includes(f) && !SETUP_INERT.has(f as FaultName))
      return { kind: 'all', reason: `${f} is reached outside any check (run setup or background work)` };
    // Read at start-up: whatever a server decided then, only a call to that server can show.
    const readBy = (cov.servers ?? []).filter((s) => s.startup.includes(f));
    for (const s of readBy) {
      if (s.tags.includes(UNTAGGED))
        return { kind: 'all', reason: `${f} is read at start-up by a server the run setup called` };
      for (const tag of s.tags) if (tag !== SWEEP_TAG) titles.add(tag);
    }
    // The end-of-run sweep comes after every check: a fault it alone meets changes no verdict.
    const reached = Object.entries(cov.faults)
      .filter(([tag, list]) => tag !== SWEEP_TAG && tag !== UNTAGGED && list.includes(f))
      .map(([tag]) => tag);
    if (reached.length === 0 && readBy.length === 0) {
      if (cov.faults[SWEEP_TAG]?.includes(f)) continue;
      return {
        kind: 'all',
        reason: `${f} was never reached in the clean run (read at start-up, or no check gets there)`,
      };
    }
    for (const t of reached) titles.add(t);
  }
  if (titles.size === 0)
    return { kind: 'none', reason: `no check of the clean run requested a route ${faults.join(', ')} changes` };
  return { kind: 'some', titles: [...titles].sort() };
}

/** A Playwright --grep matching exactly these check titles (grep sees "file describe… title"). */
export function grepForTitles(titles: readonly string[]): string {
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return `(?:^| )(?:${titles.map(esc).join('|')})(?: @\\S+)*$`;
}
