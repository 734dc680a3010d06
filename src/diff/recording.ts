/**
 * A recording: one side's normalised exchanges, saved once (`--record DIR`) so that others can
 * diff against that side offline (`--against-recording DIR`). It names the harness version,
 * the recorded target's release and edition, and when it was made; it holds no raw answer,
 * and what it holds is redacted again as it is written. An exchange of a recording is cited
 * as `<recording name>#<ref>` (e.g. `seatable-cloud-6.2#answers/listRows`): the name is the
 * recording's own, the ref is stable across harness versions that make the same call.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { redactText } from '../client/redact.js';
import { readJsonFile } from '../common/json-file.js';
import { identity } from '../spec/identity.js';
import { Exchange } from './exchange.js';

const RECORDING_FILE = 'recording.json';
const RECORDING_FORMAT = 1;

export const Recording = z.object({
  format: z.literal(RECORDING_FORMAT),
  /** How the recording is cited (`name#ref`); defaults to the folder's name. */
  name: z.string().min(1),
  harness: z.object({ name: z.string(), version: z.string() }),
  target: z.object({
    /** What the recorder said the target is (a descriptor's file name, "reference server"): never its URL or credentials. */
    label: z.string(),
    release: z.string(),
    edition: z.string(),
  }),
  madeAt: z.string(),
  /** The calls the recording's side made to make it. */
  calls: z.number().int().nonnegative(),
  exchanges: z.array(Exchange),
});
export type Recording = z.output<typeof Recording>;

export function writeRecording(dir: string, r: Omit<Recording, 'format' | 'harness'>): string {
  mkdirSync(dir, { recursive: true });
  const { name, version } = identity();
  const full: Recording = { format: RECORDING_FORMAT, harness: { name, version }, ...r };
  const file = join(dir, RECORDING_FILE);
  // Redacted as a whole once more: the samples already are, the skip reasons and labels too.
  writeFileSync(file, `${redactText(JSON.stringify(full, null, 1))}\n`);
  return file;
}

export function readRecording(dir: string): Recording {
  return readJsonFile(join(dir, RECORDING_FILE), Recording, 'recording');
}

export const recordingName = (dir: string) => basename(dir.replace(/[\\/]+$/, '')) || 'recording';

/** `name#ref` → the exchange it names in `recording`, or an Error saying why not. */
export function citedExchange(citation: string, recording: Recording): Exchange | Error {
  const at = citation.indexOf('#');
  if (at < 1) return new Error(`"${citation}": a citation is <recording name>#<ref>`);
  const [name, ref] = [citation.slice(0, at), citation.slice(at + 1)];
  if (name !== recording.name)
    return new Error(`"${citation}": names recording "${name}", this one is "${recording.name}"`);
  return (
    recording.exchanges.find((x) => x.ref === ref) ??
    new Error(`"${citation}": recording "${name}" has no exchange ${ref}`)
  );
}
