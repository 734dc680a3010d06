/**
 * `--accept FILE`: divergences already known, like a run's baseline. An entry names an
 * exchange's ref and, optionally, the kind of divergence; the divergences it matches are
 * reported as accepted and do not fail the diff. An entry that matches nothing is stale — the
 * two sides now agree there, or the ref is gone — and is reported so the file can shrink.
 * File: `{"accepted": [{"ref": "answers/listRows", "kind": "structure", "reason": "…"}]}`.
 */
import { z } from 'zod';
import { readJsonFile } from '../common/json-file.js';
import { DIVERGENCE_KINDS, type Compared } from './compare.js';

const AcceptEntry = z.strictObject({
  ref: z.string().min(1),
  kind: z.enum(DIVERGENCE_KINDS).optional(),
  reason: z.string().min(1, 'say why the divergence is accepted'),
});
type AcceptEntry = z.output<typeof AcceptEntry>;

const AcceptFile = z.strictObject({ accepted: z.array(AcceptEntry) });

export function readAccept(file: string): AcceptEntry[] {
  return readJsonFile(file, AcceptFile, 'accept file').accepted;
}

/** Mark the accepted divergences (in place) and give the entries that matched none. */
export function applyAccept(results: Compared[], entries: readonly AcceptEntry[]): AcceptEntry[] {
  const used = new Set<AcceptEntry>();
  for (const r of results) {
    for (const d of r.divergences) {
      const e = entries.find((x) => x.ref === r.ref && (!x.kind || x.kind === d.kind));
      if (e) {
        d.accepted = e.reason;
        used.add(e);
      }
    }
  }
  return entries.filter((e) => !used.has(e));
}

/** The divergences that fail the diff: those no entry accepts. */
export const openDivergences = (results: readonly Compared[]) =>
  results.flatMap((r) => r.divergences.filter((d) => !d.accepted).map((d) => ({ ref: r.ref, ...d })));
