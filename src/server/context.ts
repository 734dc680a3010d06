/** Everything a request handler may need, built once per server. */
import { behaviourAt, type Behaviour } from '../spec/index.js';
import { effectiveLimits, type EffectiveLimits, type ServerOptions } from './options.js';
import { FixedWindowLimiter } from './pipeline/limiter.js';
import { NO_EVENTS, type RowEvents } from './store/events.js';
import { noKeptRows, type KeptRows } from './store/kept-rows.js';
import type { RowsContext } from './store/rows.js';
import { seed, type SeedCredentials } from './store/seed.js';
import { Store } from './store/store.js';
import type { Faults } from './faults.js';

/** A base's gateway GET answers by key (URL), and the row list's JSON by row (store/kept-rows.ts). */
export interface BaseCache {
  version: number;
  entries: Map<string, Buffer>;
  bytes: number;
  rows: KeptRows;
}

export interface ServerContext extends RowsContext {
  opts: ServerOptions;
  behaviour: Readonly<Behaviour>;
  store: Store;
  creds: SeedCredentials;
  limits: EffectiveLimits;
  limiter: FixedWindowLimiter;
  faults: Faults;
  /**
   * Someone records which fault switches are read (the selftest's coverage): a switch read only
   * where it would change an answer must then be looked for even where it is not set.
   */
  faultReadsWatched?: boolean;
  events: RowEvents;
  now: () => number;
  /** What is cached of each base while its version is unchanged (ROUTE-7). */
  responseCache: Map<string, BaseCache>;
  /** Set by the families that need them (quota, webhooks); absent means not in use. */
  quota?: { admit(baseUuid: string): boolean };
  /** Closed with the server. */
  closers: (() => Promise<void> | void)[];
}

export function createContext(opts: ServerOptions): ServerContext {
  const now = opts.clock ?? Date.now;
  const store = new Store(opts.dataFile, now);
  const ctx: ServerContext = {
    opts,
    behaviour: behaviourAt(opts.apiVersion),
    store,
    db: store.db,
    creds: seed(store),
    limits: effectiveLimits(opts),
    limiter: new FixedWindowLimiter(opts.rateWindowSeconds * 1000, now),
    faults: new Set(opts.faults),
    events: NO_EVENTS,
    now,
    responseCache: new Map(),
    closers: [],
  };
  return ctx;
}

const CACHE_ENTRIES_PER_BASE = 256;
/** Bodies of 1,000 rows run to half a megabyte: bound the bytes too, not only the entries. */
const CACHE_BYTES_PER_BASE = 16 * 1024 * 1024;

/**
 * A cached gateway answer for this base and key, if the base has not changed since. Kept as
 * UTF-8 bytes: a hit is then written as it is, not measured and encoded again per request.
 * `make` is given the base's cache, for what it keeps of its own while the version holds.
 */
export function cached(
  ctx: ServerContext,
  baseUuid: string,
  version: number,
  key: string,
  make: (c: BaseCache) => string,
): Buffer {
  let c = ctx.responseCache.get(baseUuid);
  if (!c || c.version !== version) {
    c = { version, entries: new Map(), bytes: 0, rows: noKeptRows() };
    ctx.responseCache.set(baseUuid, c);
  }
  let body = c.entries.get(key);
  if (body === undefined) {
    body = Buffer.from(make(c));
    if (c.entries.size >= CACHE_ENTRIES_PER_BASE || c.bytes + body.length > CACHE_BYTES_PER_BASE) {
      c.entries.clear();
      c.bytes = 0;
    }
    c.entries.set(key, body);
    c.bytes += body.length;
  }
  return body;
}
