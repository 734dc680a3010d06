/**
 * `diff.json`: the machine-readable outcome of a diff, versioned, with its JSON Schema written
 * beside it (`diff.schema.json`); `diff.md` (ready for a CI step summary) and `diff.html` are
 * made from it (report-md.ts, report-html.ts).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { redactText } from '../client/redact.js';
import { Compared, DIVERGENCE_KINDS } from './compare.js';
import { diffHtml } from './report-html.js';
import { diffMarkdown } from './report-md.js';

export const DIFF_SCHEMA_VERSION = 1;

const SideInfo = z.object({
  label: z.string(),
  release: z.string(),
  edition: z.string(),
  /** Calls this diff made to the side (0: a recording). */
  calls: z.number().int().nonnegative(),
  /** When the side is a recording: its name, when and by which harness version it was made, and the calls that took. */
  recording: z
    .object({ name: z.string(), madeAt: z.string(), harness: z.string(), calls: z.number().int() })
    .optional(),
});

export const DiffReport = z.object({
  schemaVersion: z.literal(DIFF_SCHEMA_VERSION),
  harness: z.object({ name: z.string(), version: z.string() }),
  madeAt: z.string(),
  durationMs: z.number().int().nonnegative(),
  target: SideInfo.describe('the side diffed: --target-file, else the embedded reference server'),
  against: SideInfo.describe(
    'the side it is diffed against: --against-file, --against-recording, else the embedded reference server',
  ),
  summary: z.object({
    exchanges: z.number().int(),
    same: z.number().int(),
    diverged: z.number().int(),
    notCompared: z.number().int(),
    /** Divergences by kind; `open` fail the diff, `accepted` are listed by --accept. */
    byKind: z.record(z.enum(DIVERGENCE_KINDS), z.number().int()),
    open: z.number().int(),
    accepted: z.number().int(),
  }),
  /** --accept entries that matched no divergence: the sides agree there now, or the ref is gone. */
  stale: z.array(z.object({ ref: z.string(), kind: z.string().optional(), reason: z.string() })),
  /** Against a recording: the target's behaviours the recording confirms and contradicts, as citations `name#ref`. */
  evidence: z
    .object({ recording: z.string(), confirms: z.array(z.string()), contradicts: z.array(z.string()) })
    .optional(),
  /** What went wrong around the calls (a change not put back, a scratch table not removed). */
  problems: z.array(z.string()),
  /** Exit code: 0 no open divergence, 1 open divergences, 2 a side could not be run. */
  exitCode: z.number().int(),
  results: z.array(Compared),
});
export type DiffReport = z.output<typeof DiffReport>;

const diffJsonSchema = (): unknown => ({
  title: 'conformance diff.json',
  ...z.toJSONSchema(DiffReport, { target: 'draft-2020-12' }),
});

/** Write diff.json, diff.schema.json, diff.md and diff.html to `dir`; returns the files. */
export function writeDiffReports(dir: string, report: DiffReport): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['diff.json', JSON.stringify(report, null, 1)],
    ['diff.schema.json', JSON.stringify(diffJsonSchema(), null, 2)],
    ['diff.md', diffMarkdown(report)],
    ['diff.html', diffHtml(report)],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), `${redactText(text)}\n`);
  return files.map(([name]) => join(dir, name));
}
