/**
 * `conformance diff`: the same harmless call sequences on two sides — a target and the side it
 * is diffed against (a descriptor, a recording, or the embedded reference server) — compared
 * exchange by exchange after normalising what legitimately differs. Both live sides run at
 * once, each in scratch tables of its own. Exit 0: no open divergence; 1: open divergences;
 * 2: a side could not be run (or the account was left changed).
 */
import { closeAgents } from '../client/http.js';
import { redactText } from '../client/redact.js';
import { setTrust, type TlsTrust } from '../client/tls.js';
import { preflightTarget } from '../harness/preflight.js';
import { warningsOutsideChecks } from '../harness/verdict.js';
import { identity } from '../spec/identity.js';
import { applyAccept, openDivergences, readAccept } from './accept.js';
import { compareAll, DIVERGENCE_KINDS } from './compare.js';
import type { Exchange } from './exchange.js';
import { readRecording, recordingName, writeRecording, type Recording } from './recording.js';
import { DIFF_SCHEMA_VERSION, writeDiffReports, type DiffReport } from './report.js';
import { runSequences, SEQUENCES, type Sequence } from './sequences.js';
import { referenceSide, sideFromFile, type Side, type SideOptions } from './side.js';
import type { Edition, Endpoint } from '../spec/index.js';

export interface DiffOptions extends SideOptions {
  targetFile?: string;
  againstFile?: string;
  againstRecording?: string;
  record?: string;
  /** The recording's name (default: the folder's). */
  recordName?: string;
  accept?: string;
  reportDir: string;
  sequences?: readonly Sequence[];
  /** Only operations whose endpoint id matches (the answers and probe sequences, made per operation). */
  operations?: RegExp;
  /** Release and edition the embedded reference servers emulate (default: the newest, self-hosted). */
  apiVersion?: string;
  edition?: Edition;
  /** Fault switches of the embedded reference servers (mutant tests). */
  targetFaults?: readonly string[];
  againstFaults?: readonly string[];
  /** A CA to trust besides the system roots (--ca-file, CONFORMANCE_CA_FILE); else a descriptor's `ca_file`. */
  caFile?: string;
  /** Verify no certificate (--insecure). */
  insecure?: boolean;
}

/** A side that could not be run at all: unreachable, or its credentials refused (exit 2). */
export class SideUnusable extends Error {}

/**
 * Can the side be run? A given target gets the shared preflight, `run`'s (reachable, speaks the
 * API, its credentials and bases work: one line naming what to fix); the embedded reference
 * server is the harness's own and needs none. What the preflight leaves to the checks (a base
 * token answer of another form) is the sequences' to compare.
 */
async function preflight(side: Side): Promise<void> {
  if (side.server) return;
  const f = await preflightTarget(side.state.target);
  if (!f.ok) throw new SideUnusable(`${side.label}: cannot be run — ${redactText(f.what)}`);
}

/** One trust for the process (src/client/tls.ts): the flag, else the descriptors' one `ca_file` (two different ones need a bundle of both). */
function trustOf(o: DiffOptions, sides: readonly Side[]): TlsTrust {
  const named = [
    ...new Set(
      sides
        .filter((s) => !s.server)
        .map((s) => s.state.target.ca_file)
        .filter((f): f is string => !!f),
    ),
  ];
  if (!o.caFile && named.length > 1)
    throw new Error(
      `CA file: the two descriptors name different ca_file (${named.join(', ')}): give --ca-file with one PEM file holding both`,
    );
  const caFile = o.caFile ?? named[0];
  return { insecure: o.insecure === true, ...(caFile ? { caFile } : {}) };
}

const sideInfo = (s: Side, calls: number) => ({
  label: s.label,
  release: s.state.apiVersion,
  edition: s.state.edition,
  calls,
});

export async function diff(o: DiffOptions): Promise<DiffReport> {
  const started = Date.now();
  const which = o.sequences ?? SEQUENCES;
  const only = (ep: Endpoint) => !o.operations || o.operations.test(ep.id);
  const accept = o.accept ? readAccept(o.accept) : [];
  const recording: Recording | undefined = o.againstRecording ? readRecording(o.againstRecording) : undefined;
  const problems: string[] = [];
  let leftChanged = false;
  warningsOutsideChecks((w) => {
    problems.push(w.what);
    leftChanged ||= w.accountChanged;
  });
  const sides: Side[] = [];
  try {
    const a = o.targetFile ? sideFromFile(o.targetFile, o) : await referenceSide({ ...o, faults: o.targetFaults });
    sides.push(a);
    const b = recording
      ? undefined
      : o.againstFile
        ? sideFromFile(o.againstFile, o)
        : await referenceSide({ ...o, faults: o.againstFaults });
    if (b) sides.push(b);
    setTrust(trustOf(o, sides));
    await Promise.all(sides.map(preflight));
    const [ra, rb] = await Promise.all([runSequences(a, which, only), b ? runSequences(b, which, only) : undefined]);
    problems.push(...ra.problems, ...(rb?.problems ?? []));
    // --operations narrows the sequences made per operation (answers, probe); the others run whole.
    const keep = (x: Exchange) =>
      which.some((s) => x.ref.startsWith(`${s}/`)) &&
      (!o.operations || !/^(answers|probe)\//.test(x.ref) || o.operations.test(x.operation));
    const theirs = rb?.exchanges ?? recording!.exchanges.filter(keep);
    if (o.record)
      writeRecording(o.record, {
        name: o.recordName ?? recordingName(o.record),
        target: { label: a.label, release: a.state.apiVersion, edition: a.state.edition },
        madeAt: new Date(started).toISOString(),
        calls: ra.calls,
        exchanges: ra.exchanges,
      });
    const results = compareAll(ra.exchanges, theirs);
    const stale = applyAccept(results, accept);
    const open = openDivergences(results);
    const all = results.flatMap((r) => r.divergences);
    const byKind = Object.fromEntries(
      DIVERGENCE_KINDS.map((k) => [k, all.filter((d) => d.kind === k).length]),
    ) as DiffReport['summary']['byKind'];
    const count = (v: string) => results.filter((r) => r.verdict === v).length;
    const report: DiffReport = {
      schemaVersion: DIFF_SCHEMA_VERSION,
      harness: { name: identity().name, version: identity().version },
      madeAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      target: sideInfo(a, ra.calls),
      against: recording
        ? {
            label: recording.target.label,
            release: recording.target.release,
            edition: recording.target.edition,
            calls: 0,
            recording: {
              name: recording.name,
              madeAt: recording.madeAt,
              harness: recording.harness.version,
              calls: recording.calls,
            },
          }
        : sideInfo(b!, rb!.calls),
      summary: {
        exchanges: results.length,
        same: count('same'),
        diverged: count('diverged'),
        notCompared: count('not compared'),
        byKind,
        open: open.length,
        accepted: all.length - open.length,
      },
      stale,
      evidence: recording
        ? {
            recording: recording.name,
            confirms: results.filter((r) => r.verdict === 'same').map((r) => `${recording.name}#${r.ref}`),
            contradicts: results.filter((r) => r.verdict === 'diverged').map((r) => `${recording.name}#${r.ref}`),
          }
        : undefined,
      problems: problems.map(redactText),
      exitCode: leftChanged ? 2 : open.length ? 1 : 0,
      results,
    };
    writeDiffReports(o.reportDir, report);
    return report;
  } finally {
    warningsOutsideChecks(undefined);
    for (const s of sides) await s.server?.close().catch(() => undefined);
  }
}

/** After a diff: the HTTP agents closed, so the process can end. */
export const diffDone = () => closeAgents();
