/**
 * How the threads of the built-in runner talk. A VU thread runs many VUs over the script made
 * awaitable (transform/) and sends their HTTP itself, on its own event loop. The main thread
 * is off that path: it starts runs, hands out arrival-rate iterations through a shared queue,
 * flips each VU's control words, and receives metric samples in batches.
 */
import type { Stripe } from '../engine/segment.js';
import type { NetOptions } from '../engine/net-options.js';

/** A VU's control words (Int32 indices of its SharedArrayBuffer, CTL_BYTES long). */
export const CTL = {
  /** 1 = hard stop: the running iteration must end at its next awaited call. */
  interrupt: 0,
  /** 1 = graceful stop: finish the current iteration, start no more. */
  stop: 1,
  /** 1 while a VU of an arrival-rate scenario runs an iteration (k6 counts it active then). */
  active: 2,
} as const;
export const CTL_BYTES = 4 * 4;

/**
 * An arrival-rate scenario's queue (Int32 indices): the main thread grants one ticket per
 * iteration that falls due while a VU is idle, and idle VUs take tickets themselves, so
 * starting an iteration costs no message and no round trip through the main event loop.
 */
export const QUEUE = {
  /** VUs waiting for a ticket (a VU adds itself; the main thread takes one per ticket granted). */
  idle: 0,
  /** Tickets granted and not yet taken. */
  tickets: 1,
  /** Bumped with every grant and at the close; idle VUs wait on this word. */
  seq: 2,
  /** 1 = no more tickets: VUs leave once the granted ones are taken. */
  closed: 3,
  /** Iterations started so far (a VU's claim numbers its iteration in the scenario). */
  next: 4,
} as const;
export const QUEUE_WORDS = 8;

/** Status ranges counted as expected (k6 `expectedStatuses`); null disables http_req_failed. */
export type Expected = [number, number][] | null;

export type ResponseType = 'text' | 'binary' | 'none';

/** A request as the script made it (VU side). */
export interface HttpRequestSpec {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  timeoutMs: number;
  responseType: ResponseType;
  expected: Expected;
  /** The request's own tags (params.tags); k6's base and system tags are added when it is measured. */
  userTags: Record<string, string>;
  /** The user tags as JSON ('' for none), and the number naming the base tags at the time of the call (vu-state baseKey()). */
  tagsKey: string;
  base: number;
}

/** A request as the thread's HTTP client sends it: only what goes on the wire. */
export interface IoRequest {
  method: string;
  url: string;
  /** Flat name/value pairs or an object. */
  headers: string[] | Record<string, string>;
  body: Uint8Array | string | null;
  timeoutMs: number;
  responseType: ResponseType;
}

export interface Timings {
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
  duration: number;
}

/** Response headers as the client hands them over: name, value, name, value… as the server sent them. */
export type RawHeaders = readonly string[];

/** An answer of the HTTP client: the headers as it gave them, the body still in its chunks (decoded if the script reads it). */
export interface Answer {
  status: number;
  statusText: string;
  proto: string;
  headers: RawHeaders;
  chunks: Buffer[] | null;
  responseType: ResponseType;
  timings: Timings;
  error: string;
  errorCode: number;
  remoteIp: string;
  remotePort: number;
  bytesSent: number;
  bytesReceived: number;
}

export interface ScenarioRef {
  name: string;
  executor: string;
  startTime: number;
  exec: string;
  env: Record<string, string>;
  tags: Record<string, string>;
}

/** Main → a VU, while it is idle. */
export type Command =
  | {
      t: 'run';
      scenario: ScenarioRef;
      mode: 'loop';
      iterations: number;
      counter: SharedArrayBuffer;
      shared: boolean;
      total: number;
      stripe: Stripe;
      deadline: number;
      setupData: string;
    }
  | {
      t: 'run';
      scenario: ScenarioRef;
      mode: 'queue';
      queue: SharedArrayBuffer;
      total: number;
      stripe: Stripe;
      deadline: number;
      setupData: string;
    }
  | { t: 'call'; fn: 'setup' | 'teardown' | 'handleSummary'; arg: string };

/** Main → worker: a command for one of its VUs, a VU to add, a hard stop, the run's connection settings, the end. */
export type WorkerCommand =
  | (Command & { vu: number })
  | { t: 'add'; vu: number; vuInTest: number; ctl: SharedArrayBuffer; localAddress: string | undefined }
  | { t: 'interrupt'; vu: number }
  | { t: 'net'; net: NetOptions }
  | { t: 'exit' };

export interface DeclaredMetric {
  name: string;
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  isTime: boolean;
}

/**
 * Metric samples of one VU, columnar. Names and tag sets are numbered per VU and sent once;
 * each sample is three numbers, so a batch is one typed array, moved rather than copied.
 */
export interface SampleBatch {
  /** Metric names first used in this batch, numbered on from the VU's earlier ones. */
  names: string[];
  /** Tag sets first used in this batch, numbered on likewise. */
  tags: Record<string, string>[];
  /** The VU dropped its tag sets (too many distinct ones): their numbering restarts with this batch. */
  reset: boolean;
  /** Per sample: key (flags·2^48 + metric·2^32 + tag set), value, time (ms since epoch); or a request record (SAMPLE_RECORD). */
  data: Float64Array;
}

/**
 * Sample flag: a request record, the samples k6 emits for one request in RECORD_UNITS
 * samples' room (its key names the tag set, then the time and one value per metric of
 * REQUEST_METRICS; http_reqs counts 1, a negative http_req_failed means none was emitted).
 * One record instead of eleven samples: a fourth of the room, one key to decode.
 */
export const SAMPLE_RECORD = 1;
export const REQUEST_METRICS = [
  'http_reqs',
  'http_req_duration',
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
  'http_req_failed',
  'data_sent',
  'data_received',
] as const;
/** A record's length in samples (three numbers each): key, time and REQUEST_METRICS but http_reqs. */
export const RECORD_UNITS = 4;

/** Worker → main. Samples are the thread's (numbered per thread); the rest names its VU. */
export type Report =
  | { t: 'ready'; vu: number; options: string; metrics: DeclaredMetric[]; exports: string[] }
  | { t: 'init-error'; vu: number; error: string }
  | { t: 'samples'; b: SampleBatch; metrics?: DeclaredMetric[] }
  | {
      t: 'done';
      vu: number;
      b: SampleBatch | null;
      completed: number;
      interrupted: boolean;
      errors: string[];
      result?: string;
      metrics?: DeclaredMetric[];
    }
  | { t: 'abort'; vu: number; reason: string; b: SampleBatch | null };

/** Worker data given at spawn: the thread's script and its first VU. */
export interface WorkerInit {
  /** The script made awaitable (transform/), as CommonJS. */
  code: string;
  /** Warm the HTTP path up before the first VU reports ready (not when only the options are read, nor for the setup VU). */
  warm: boolean;
  maxBodyBytes?: number;
  /** TLS verification and name overrides for the thread's HTTP client. */
  net?: NetOptions;
  vu: number;
  /** The VU's number across all instances of a split run (k6's idInTest). */
  vuInTest: number;
  localAddress?: string;
  env: Record<string, string>;
  /** The VU's control words (CTL). */
  ctl: SharedArrayBuffer;
  testStart: number;
  scriptDir: string;
  /** Shared counters: [iterationsCompleted, iterationsInterrupted, vusActive, vusInitialized]. */
  instance: SharedArrayBuffer;
  options: string;
}
