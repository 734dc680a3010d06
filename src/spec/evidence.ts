/**
 * What an assertion about a target stands on. A check fails a target only for an assertion
 * whose evidence shows the real service (or its specification) behaves so: the specification's
 * words (`spec`, with §), the real service's API description or official documentation
 * (`documented`, with the operation id or page), an answer recorded from the real service
 * (`recorded`, with its source), or an official client that depends on it (`client`, with the
 * method). Our own reasoning (`inferred`: HTTP semantics, robustness, consistency) only warns,
 * unless the run is `--strict`. Every check names a default (src/harness/test.ts `clause()`),
 * an assertion may name its own (`expect.because(…)`); docs/clauses.md lists them all.
 */

import type { Endpoint } from './endpoints/types.js';

export const EVIDENCE_CLASSES = ['spec', 'documented', 'recorded', 'client', 'inferred'] as const;
export type EvidenceClass = (typeof EVIDENCE_CLASSES)[number];

export interface Evidence {
  readonly class: EvidenceClass;
  /** `inferred` only: what every server owes (no correct server answers with a 5xx, a reset or a hang, or loses data): a violation fails all the same. */
  readonly owed?: boolean;
  /** Where it is: `§8.1.3`, `OA62 base_operations#appendRows`, `seatable/openapi tests/API_ISSUES.md item 2`, `seatable-api-python Base.add_row`, or the reasoning. */
  readonly cite: string;
}

const make = (cls: EvidenceClass) => (cite: string): Evidence => {
  if (!cite.trim()) throw new Error(`${cls} evidence needs a citation`);
  return Object.freeze({ class: cls, cite });
};

/** The citation constructors: `ev.spec('8.1.3')`, `ev.documented('OA62 base_operations#appendRows')`, … */
export const ev = {
  /** The specification (spec/base-data-api.md), by section: `ev.spec('8.1.3')` cites `§8.1.3`. */
  spec: (section: string): Evidence => make('spec')(section.startsWith('§') ? section : `§${section}`),
  /** The API description (seatable/seatable-api-php `openapi_input/`, 6.2: `OA62 <group>#<operationId>`) or an official documentation page. */
  documented: make('documented'),
  /** An answer recorded from the real service, with its source (repository and file, item), or an exchange of a `conformance diff` recording: `ev.recorded('seatable-cloud-6.2#answers/listRows')` (`<recording name>#<ref>`, src/diff/recording.ts). */
  recorded: make('recorded'),
  /** An official client (`seatable-api` on npm, seatable/seatable-api-python) whose method depends on it. */
  client: make('client'),
  /** Our own reasoning (HTTP semantics, robustness, consistency): a violation is a warning unless `--strict`. */
  inferred: make('inferred'),
  /** Our reasoning about what EVERY server owes — a 5xx, a reset, a hang, a write nobody asked for, data lost: `inferred`, yet a violation fails. */
  owed: (cite: string): Evidence => Object.freeze({ ...make('inferred')(cite), owed: true }),
} as const;

/** Does a violated assertion with this evidence fail the target (outside `--strict`)? */
export const failsTarget = (e: Evidence): boolean => e.class !== 'inferred' || !!e.owed;

/**
 * The evidence of a check that a row of the endpoint table exists as it says: the
 * specification (clause `clauseSource`'s §) for a `spec` row, else the API description's
 * operation.
 */
export function endpointEvidence(ep: Endpoint, clauseSource: string): Evidence {
  if (ep.basis === 'spec') return ev.spec(clauseSource);
  return ev.documented(ep.openapi ? `OA62 ${ep.openapi.file.replace(/\.\w+$/, '')}#${ep.openapi.operationId}` : `OA62 ${ep.operation}`);
}

/** The evidence of a documented answer's shape (SHAPE-8): the response schema and example of the row's OA62 operation. */
export function answerEvidence(ep: Endpoint): Evidence {
  const op = ep.openapi ? `${ep.openapi.file.replace(/\.\w+$/, '')}#${ep.openapi.operationId}` : ep.operation;
  return ev.documented(`OA62 ${op}: its response schema and example`);
}
