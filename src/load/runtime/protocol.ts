/**
 * Messages between the main thread (executors, HTTP, metrics) and the VU workers. A VU runs
 * the script synchronously, as k6 does; when it calls http.* or sleep() it posts a request
 * and blocks in Atomics.wait on its control word until the main thread has written the
 * answer to its response port.
 */
import type { MessagePort } from 'node:worker_threads';

/** Control words in each VU's SharedArrayBuffer (Int32 indices). */
export const CTL = {
  /** 0 = waiting, 1 = an answer is on the response port. */
  wake: 0,
  /** 1 = hard stop: the running iteration must end at its next blocking call. */
  interrupt: 1,
  /** 1 = graceful stop: finish the current iteration, start no more. */
  stop: 2,
  /** Iterations completed by this VU in its current loop (read by the main thread for progress). */
  done: 3,
} as const;
export const CTL_WORDS = 4;

/** One metric sample: name, value, tags, time (ms since epoch). */
export type Sample = [string, number, Record<string, string>, number];

/** Status ranges counted as expected (k6 `expectedStatuses`); null disables http_req_failed. */
export type Expected = [number, number][] | null;

export interface HttpRequestSpec {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  timeoutMs: number;
  responseType: 'text' | 'binary' | 'none';
  expected: Expected;
  tags: Record<string, string>;
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

export interface HttpResult {
  url: string;
  status: number;
  status_text: string;
  proto: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  timings: Timings;
  error: string;
  error_code: number;
  remote_ip: string;
  remote_port: number;
}

export interface ScenarioRef {
  name: string;
  executor: string;
  startTime: number;
  exec: string;
  env: Record<string, string>;
  tags: Record<string, string>;
}

/** Main → worker, while the worker is idle. */
export type Command =
  | { t: 'run'; scenario: ScenarioRef; mode: 'once'; iterationInTest: number; iterationInScenario: number; setupData: string }
  | { t: 'run'; scenario: ScenarioRef; mode: 'loop'; iterations: number; shared: SharedArrayBuffer | null; total: number; deadline: number; setupData: string }
  | { t: 'call'; fn: 'setup' | 'teardown' | 'handleSummary'; arg: string }
  | { t: 'exit' };

export interface DeclaredMetric { name: string; type: 'counter' | 'gauge' | 'rate' | 'trend'; isTime: boolean }

/** Worker → main. */
export type Report =
  | { t: 'ready'; options: string; metrics: DeclaredMetric[]; exports: string[] }
  | { t: 'init-error'; error: string }
  | { t: 'http'; reqs: HttpRequestSpec[]; s: Sample[]; seq?: number }
  | { t: 'flush'; s: Sample[]; metrics?: DeclaredMetric[] }
  | { t: 'done'; s: Sample[]; completed: number; interrupted: boolean; errors: string[]; result?: string; metrics?: DeclaredMetric[] }
  | { t: 'abort'; reason: string; s: Sample[] };

/** Worker data given at spawn. */
export interface WorkerInit {
  code: string;
  vu: number;
  env: Record<string, string>;
  ctl: SharedArrayBuffer;
  port: MessagePort;
  testStart: number;
  scriptDir: string;
  /** Shared counters: [iterationsCompleted, iterationsInterrupted, vusActive, vusInitialized]. */
  instance: SharedArrayBuffer;
  options: string;
}
