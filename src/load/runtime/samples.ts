/**
 * A VU's metric samples on their way to the main thread: three numbers per sample in one
 * typed array, metric names and tag sets numbered once per VU. A request's eleven samples
 * go as one record of twelve numbers (pushRequest) instead of eleven tagged objects cloned
 * across threads, and the main thread resolves each tag set's sinks once.
 */
import { RECORD_UNITS, REQUEST_METRICS, SAMPLE_RECORD, type SampleBatch, type Timings } from './protocol.js';

const CAP = 4096;
/** Past this many tag sets (scripts with unique URLs and no name tag), start the numbering over. */
const MAX_TAG_SETS = 50_000;
/** A sample's key: flags·FLAG_SHIFT + metric·TAG_SHIFT + tag set, exact in a double. */
export const TAG_SHIFT = 2 ** 32;
export const FLAG_SHIFT = 2 ** 48;

const data = new Float64Array(CAP * 3);
let n = 0;
const names = new Map<string, number>();
let newNames: string[] = [];
const tagIds = new Map<string, number>();
let newTags: Record<string, string>[] = [];
let reset = false;

export function metricId(name: string): number {
  let id = names.get(name);
  if (id === undefined) {
    id = names.size;
    names.set(name, id);
    newNames.push(name);
  }
  return id;
}

/** The number of a tag set; equal sets written in the same key order share it. */
export function tagSetId(tags: Record<string, string>): number {
  return tagSetIdFor(JSON.stringify(tags), () => tags);
}

/** The number of the tag set `key` names; `build` makes the set the first time it is seen. */
function tagSetIdFor(key: string, build: () => Record<string, string>): number {
  let id = tagIds.get(key);
  if (id === undefined) {
    id = newTagSet(build());
    tagIds.set(key, id);
  }
  return id;
}

/** Number a new tag set (callers that find their sets by other keys keep the number, and forget it on restart). */
export function newTagSet(tags: Record<string, string>): number {
  if (sets >= MAX_TAG_SETS) forget();
  newTags.push(tags);
  return sets++;
}

let sets = 0;
const restartHooks: (() => void)[] = [];
/** `fn` runs when the numbering restarts: numbers kept elsewhere are void then. */
export function onRestart(fn: () => void): void {
  restartHooks.push(fn);
}

function forget(): void {
  // Samples already buffered use the old numbers: they must leave before the new ones start.
  // Metric names are few (declared in the init context) and keep their numbers.
  onFull?.();
  tagIds.clear();
  newTags = [];
  reset = true;
  sets = 0;
  for (const h of restartHooks) h();
}

/** Called when the buffer is full (the VU posts a batch). */
let onFull: (() => void) | undefined;
export function setOnFull(fn: () => void): void {
  onFull = fn;
}

/**
 * While muted (the warm-up), samples are written as usual, so the warm-up compiles this path
 * too, but never sent: a full buffer is emptied, a batch carries none, unmuting drops them.
 * Names and tag sets are still numbered and sent.
 */
let muted = false;
export function mute(on: boolean): void {
  if (!on) n = 0;
  muted = on;
}

/** Room for `units` more: a full buffer goes to the main thread, or is emptied while muted. */
function room(units: number): void {
  if (n + units <= CAP) return;
  if (muted) n = 0;
  else onFull?.();
}

export function push(metric: number, tags: number, value: number, time: number, flags = 0): void {
  room(1);
  const i = n * 3;
  data[i] = flags * FLAG_SHIFT + metric * TAG_SHIFT + tags;
  data[i + 1] = value;
  data[i + 2] = time;
  n++;
}

// The request metrics take their numbers first, so every record's metrics are known to the main thread.
for (const m of REQUEST_METRICS) metricId(m);

/** The samples of one request (k6's http_req_*, data_sent, data_received) as one record; `failed` < 0: none. */
export function pushRequest(
  tags: number,
  time: number,
  t: Timings,
  failed: number,
  sent: number,
  received: number,
): void {
  room(RECORD_UNITS);
  let i = n * 3;
  data[i++] = SAMPLE_RECORD * FLAG_SHIFT + tags;
  data[i++] = time;
  data[i++] = t.duration;
  data[i++] = t.blocked;
  data[i++] = t.connecting;
  data[i++] = t.tls_handshaking;
  data[i++] = t.sending;
  data[i++] = t.waiting;
  data[i++] = t.receiving;
  data[i++] = failed;
  data[i++] = sent;
  data[i] = received;
  n += RECORD_UNITS;
}

export function pending(): boolean {
  return (n > 0 && !muted) || newNames.length > 0;
}

/** The buffered samples as a batch (its array is transferred, not copied), or null when empty. */
export function take(): SampleBatch | null {
  if (muted) n = 0;
  if (n === 0 && newNames.length === 0 && newTags.length === 0) return null;
  const b: SampleBatch = { names: newNames, tags: newTags, reset, data: data.slice(0, n * 3) };
  newNames = [];
  newTags = [];
  reset = false;
  n = 0;
  return b;
}
