/**
 * Planning a mutant's run from the clean run's coverage: which checks (a Playwright --grep of
 * their titles, and their clauses so the runner skips an empty phase), and how the report
 * states it. Plus the bounded pool the selftest's runs go through.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Results } from '../reports/results-schema.js';
import type { Mutant } from './catalog.js';
import { grepForTitles, selectChecks, widen, type Coverage, type Selection } from './coverage.js';

/** Playwright's --grep travels as one argument; Linux caps one at 128 KiB. */
const MAX_GREP = 100_000;

/** The clause IDs check titles begin with; undefined when one does not (then no clause filter). */
export function clausesOf(titles: readonly string[]): string[] | undefined {
  const ids = titles.map((t) => /^([A-Z]+-\d+)\b/.exec(t)?.[1]);
  return ids.every(Boolean) ? [...new Set(ids as string[])] : undefined;
}

interface Plan {
  selection: Selection;
  grep?: string;
  clauses?: string[];
  /** For the report: checks run (or 'all'), and why all or none. */
  ran: { checks: number | 'all'; why?: string };
}

/** `clean` undefined (no coverage, or --full): every check. */
export function planRun(
  m: Mutant,
  clean: { results?: Results; coverage?: Coverage } | undefined,
  sharedFiles: ReadonlySet<string>,
  fullReason: string,
): Plan {
  let selection: Selection = { kind: 'all', reason: fullReason };
  if (clean?.coverage && clean.results) {
    const fileOf = new Map(clean.results.tests.map((t) => [t.title, t.file]));
    selection = widen(selectChecks(clean.coverage, m.faults), { fileOf, shared: sharedFiles });
  }
  if (selection.kind === 'some') {
    const grep = grepForTitles(selection.titles);
    if (grep.length <= MAX_GREP)
      return { selection, grep, clauses: clausesOf(selection.titles), ran: { checks: selection.titles.length } };
    selection = { kind: 'all', reason: 'too many checks to name' };
  }
  return {
    selection,
    ran: selection.kind === 'none' ? { checks: 0, why: selection.reason } : { checks: 'all', why: selection.reason },
  };
}

export function readCoverage(file: string): Coverage | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Coverage;
  } catch {
    return undefined;
  }
}

/**
 * A bounded pool whose list grows while it runs: `n` lanes, each taking the first waiting
 * item by `before` (e.g. heaviest first), and a running item may `add` more (a clean run adds
 * its mutants' runs as soon as it ends, so a lane never waits for the other clean runs). Ends
 * when nothing waits and nothing runs.
 */
export async function pool<T>(
  items: readonly T[],
  n: number,
  f: (item: T, add: (more: readonly T[]) => void) => Promise<void>,
  before: (a: T, b: T) => number = () => 0,
): Promise<void> {
  const waiting: T[] = [];
  let running = 0;
  const wake: (() => void)[] = [];
  const add = (more: readonly T[]) => {
    waiting.push(...more);
    waiting.sort(before);
    for (const w of wake.splice(0)) w();
  };
  add(items);
  const lane = async (): Promise<void> => {
    for (;;) {
      const item = waiting.shift();
      if (item === undefined) {
        if (running === 0) return;
        await new Promise<void>((r) => wake.push(r));
        continue;
      }
      running++;
      try {
        await f(item, add);
      } finally {
        running--;
        for (const w of wake.splice(0)) w();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, lane));
}
