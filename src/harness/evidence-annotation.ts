/**
 * The evidence a check names, kept in its `evidence` annotation: written by `clause()` in the
 * worker, read back there and by the reports. Apart from verdict.ts, which loads Playwright's
 * expect: the runner's own process reads reports and should not load Playwright to do it.
 */
import type { TestInfo } from '@playwright/test';
import { EVIDENCE_CLASSES, type Evidence, type EvidenceClass } from '../spec/index.js';

/** The `evidence` annotation `clause()` writes: `class: citation`. */
const EVIDENCE_ANNOTATION = 'evidence';
export const evidenceAnnotation = (e: Evidence) => ({
  type: EVIDENCE_ANNOTATION,
  description: `${e.class}${e.owed ? ' (owed)' : ''}: ${e.cite}`,
});

/** The check's default evidence, from its annotation. */
export function evidenceOfCheck(testInfo: Pick<TestInfo, 'annotations'>): Evidence | undefined {
  const d = testInfo.annotations.find((a) => a.type === EVIDENCE_ANNOTATION)?.description;
  const m = d ? /^(\w+)( \(owed\))?: ([\s\S]*)$/.exec(d) : null;
  return m && (EVIDENCE_CLASSES as readonly string[]).includes(m[1]!)
    ? { class: m[1] as EvidenceClass, cite: m[3]!, ...(m[2] ? { owed: true } : {}) }
    : undefined;
}
