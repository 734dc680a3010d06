/**
 * The mutant catalog is complete and honest: every clause has a mutant, every fault it names
 * is a real switch of the reference server (its names are the FaultName type of
 * src/server/faults.ts; the arguments of `drop:`/`serve:`/`zombie:` are checked here), and the
 * selftest's pure parts — check selection by coverage and the verdicts — do what they say.
 */
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { MUTANTS, catalogFaults, selectMutants } from '../src/mutants/catalog.js';
import { SWEEP_TAG } from '../src/harness/target.js';
import {
  UNTAGGED,
  grepForTitles,
  mergeCoverage,
  selectChecks,
  sharedStateFiles,
  widen,
  type Coverage,
} from '../src/mutants/coverage.js';
import { judgeClean, judgeMutant, mergeResults } from '../src/mutants/verdict.js';
import { clauseTable } from '../src/reports/outcomes.js';
import { fakeResults } from './helpers/reports.js';
import { ZOMBIE_CLAUSES } from '../src/server/routes/zombies.js';
import { FAULTS, SETUP_INERT, isFaultName, type FaultName } from '../src/server/faults.js';
import { ServerOptions } from '../src/server/options.js';
import type { RobustClause } from '../src/harness/robust/judge.js';
import { CLAUSES, ENDPOINTS, EMULATED_VERSIONS, clause, isClauseId, type ClauseId } from '../src/spec/index.js';

/**
 * Clauses whose every mutant also fails a declared overlap, and why no mutant can fail the
 * clause alone: the overlapping clause holds a superset of it by definition.
 */
const NO_SOLE_MUTANT: Partial<Record<ClauseId, string>> = {
  'ROUTE-2':
    'each route ROUTE-2 holds to exist is a documented operation, and ROUTE-8 holds every documented operation to exist',
  'ROUTE-5': "the auth-token answer is AUTH-1's token and one of SHAPE-8's documented answers",
  'GONE-1': 'GONE-8 is GONE-1 ∪ GONE-4',
  'GONE-4': 'GONE-8 is GONE-1 ∪ GONE-4',
  'GONE-8': 'GONE-8 is GONE-1 ∪ GONE-4: either way in fails one of them too',
  'RATE-5':
    'RATE-7 measures the configured limits by counting admissions: a limiter that admits a wrong count misstates them',
  'BASE-3':
    'the official client calls every BASE-3 operation (type change, column options, cascade settings): CLIENT-1 reads back what they did',
};

test('every clause has a mutant that fails it alone, or says why none can', () => {
  const sole = new Set(MUTANTS.filter((m) => !m.alsoFails?.length).map((m) => m.clause));
  const without = CLAUSES.map((c) => c.id).filter((id) => !sole.has(id));
  expect(
    without.filter((id) => !NO_SOLE_MUTANT[id]),
    'clauses whose every mutant fails other clauses too, with no reason given',
  ).toEqual([]);
  expect(
    (Object.keys(NO_SOLE_MUTANT) as ClauseId[]).filter((id) => sole.has(id)),
    'stale exemptions: these clauses have a mutant of their own now',
  ).toEqual([]);
});

test('every clause of clauses.ts has at least one mutant', () => {
  const missing = CLAUSES.map((c) => c.id).filter((id) => !MUTANTS.some((m) => m.clause === id));
  expect(missing).toEqual([]);
});

test('mutant ids are unique and kebab-case; clauses and overlaps are real; options are emulated', () => {
  expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length);
  for (const m of MUTANTS) {
    expect(m.id, m.id).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
    expect(isClauseId(m.clause), m.id).toBe(true);
    expect(m.faults.length, m.id).toBeGreaterThan(0);
    for (const c of m.alsoFails ?? []) expect(isClauseId(c) && c !== m.clause, `${m.id} alsoFails ${c}`).toBe(true);
    if (m.serverOptions?.apiVersion) expect(EMULATED_VERSIONS, m.id).toContain(m.serverOptions.apiVersion);
  }
});

/** A switch with an argument names something real: an endpoint of the table, or a clause with a zombie handler. */
function argumentProblem(f: string): string | undefined {
  const [prefix, arg] = f.split(/:(.*)/s) as [string, string | undefined];
  if (arg === undefined) return undefined;
  if (prefix === 'zombie') return ZOMBIE_CLAUSES.includes(arg) ? undefined : `no zombie handler for ${arg}`;
  return ENDPOINTS.some((e) => e.id === arg) ? undefined : `no endpoint ${arg} in the endpoint table`;
}

test('every fault the catalog names is a switch of the server, with a real argument; the server refuses any other name', () => {
  const problems = catalogFaults()
    .map((f) => [f, isFaultName(f) ? argumentProblem(f) : 'not in FAULTS'])
    .filter(([, p]) => p);
  expect(problems).toEqual([]);
  expect(new Set(FAULTS).size).toBe(FAULTS.length);
  expect(ServerOptions.safeParse({ faults: ['omit-nul'] }).error?.issues[0]?.message).toMatch(
    /^"omit-nul" is not a fault switch of the reference server/,
  );
  expect(ServerOptions.parse({ faults: ['omit-null', 'drop:listRows'] }).faults).toEqual([
    'omit-null',
    'drop:listRows',
  ]);
});

test('clause IDs and fault names are types: a misspelt one does not compile (the type check fails on an unused @ts-expect-error)', () => {
  // @ts-expect-error: RAET-5 is not a clause of the table
  expect(() => clause('RAET-5')).toThrow(/unknown clause RAET-5/);
  // @ts-expect-error: omit-nul is not a fault switch of the server
  const typo: FaultName = 'omit-nul';
  expect(isFaultName(typo)).toBe(false);
  const robust: RobustClause[] = ['ROBUST-1', 'ROBUST-5'];
  // @ts-expect-error: ROBUST-6 has no rule for a malformed request's answer
  robust.push('ROBUST-6');
});

test('--mutants selects by id or clause, with globs or a regular expression', () => {
  expect(selectMutants('omit-null').map((m) => m.id)).toEqual(['omit-null']);
  expect(selectMutants('SHAPE-*').every((m) => m.clause.startsWith('SHAPE-'))).toBe(true);
  expect([...new Set(selectMutants('/^GONE-[12]$/').map((m) => m.clause))].sort()).toEqual(['GONE-1', 'GONE-2']);
  expect(selectMutants(undefined)).toHaveLength(MUTANTS.length);
});

const COV: Coverage = {
  schemaVersion: 1,
  faults: {
    'SHAPE-1 a': ['omit-null', 'stale-cache', '429-json-body'],
    'SHAPE-2 b': ['stale-cache'],
    [UNTAGGED]: ['limit-plus-one'],
    [SWEEP_TAG]: ['429-json-body', 'only-in-sweep'],
  },
  requests: {
    'GONE-2 probe': ['GET /dtable-server/api/v1/dtables/:x/rows/', 'POST /dtable-server/api/v1/dtables/:x/rows/'],
    'ROUTE-2 plugins': ['GET /api/v2.1/admin/plugins-install-count/'],
    'GONE-7 probe': ['PUT /api/v2.1/collection-tables/abc/'],
    [UNTAGGED]: ['POST /api-gateway/api/v2/dtables/:x/tables/'],
    [SWEEP_TAG]: ['GET /api/v2.1/admin/plugins-install-count/', 'DELETE /api-gateway/api/v2/dtables/:x/tables/'],
  },
};

test('coverage selects the checks that reached a fault, or every check when in doubt', () => {
  expect(selectChecks(COV, ['omit-null'])).toEqual({ kind: 'some', titles: ['SHAPE-1 a'] });
  expect(selectChecks(COV, ['stale-cache'])).toEqual({ kind: 'some', titles: ['SHAPE-1 a', 'SHAPE-2 b'] });
  expect(selectChecks(COV, ['limit-plus-one']).kind).toBe('all'); // reached during run setup
  expect(selectChecks(COV, ['never-seen']).kind).toBe('all'); // read at start-up, or unreached
  expect(selectChecks(COV, ['serve:legacyListRows'])).toEqual({ kind: 'some', titles: ['GONE-2 probe'] });
  expect(selectChecks(COV, ['drop:pluginsInstallCount'])).toEqual({ kind: 'some', titles: ['ROUTE-2 plugins'] });
  expect(selectChecks(COV, ['zombie:GONE-7'])).toEqual({ kind: 'some', titles: ['GONE-7 probe'] });
  expect(selectChecks(COV, ['drop:createTable']).kind).toBe('all'); // the run's own setup uses it
  expect(selectChecks(COV, ['zombie:GONE-6']).kind).toBe('none');
  // The end-of-run sweep comes after every check: what it alone meets selects nothing.
  expect(selectChecks(COV, ['429-json-body'])).toEqual({ kind: 'some', titles: ['SHAPE-1 a'] });
  expect(selectChecks(COV, ['only-in-sweep']).kind).toBe('none');
  expect(selectChecks(COV, ['drop:deleteTable']).kind).toBe('none');
});

test('a fault whose reach in run setup no check can see (SETUP_INERT) selects only the checks that reached it', () => {
  const cov: Coverage = {
    schemaVersion: 1,
    faults: {
      'RATE-6 a': ['reset-relative'],
      [UNTAGGED]: ['reset-relative', 'limit-per-ip', 'select-options-without-ids'],
    },
    requests: {},
  };
  expect(SETUP_INERT.has('reset-relative')).toBe(true);
  expect(selectChecks(cov, ['reset-relative'])).toEqual({ kind: 'some', titles: ['RATE-6 a'] });
  expect(selectChecks(cov, ['limit-per-ip']).kind).toBe('all'); // reached in setup alone: no check met it, run all
  expect(selectChecks(cov, ['select-options-without-ids']).kind).toBe('all'); // stored data: setup's reach counts
});

test("a clean run's second try adds its coverage: a check stopped early the first time may reach more", () => {
  const first: Coverage = { schemaVersion: 1, faults: { 'RATE-2 a': ['x'] }, requests: {}, servers: [] };
  const again: Coverage = { schemaVersion: 1, faults: { 'RATE-2 a': ['limit-per-ip'] }, requests: {}, servers: [] };
  const merged = mergeCoverage([first, again, undefined])!;
  expect(merged.faults['RATE-2 a']).toEqual(['limit-per-ip', 'x']);
  expect(selectChecks(merged, ['limit-per-ip'])).toEqual({ kind: 'some', titles: ['RATE-2 a'] });
  expect(mergeCoverage([undefined, again])).toBeUndefined();
});

test('a fault a server reads at start-up selects the checks that called that server, or every check when run setup did', () => {
  const cov: Coverage = {
    schemaVersion: 1,
    faults: { 'RATE-7 a': ['other'] },
    requests: {},
    servers: [
      { startup: ['auth-token-unlimited-on-cloud'], tags: [UNTAGGED, 'SHAPE-1 a', SWEEP_TAG] },
      { startup: ['auth-token-unlimited-on-cloud', 'ignore-config'], tags: ['RATE-7 a', 'RATE-7 b', SWEEP_TAG] },
    ],
  };
  expect(selectChecks(cov, ['ignore-config'])).toEqual({ kind: 'some', titles: ['RATE-7 a', 'RATE-7 b'] });
  expect(selectChecks(cov, ['auth-token-unlimited-on-cloud'])).toEqual({
    kind: 'all',
    reason: 'auth-token-unlimited-on-cloud is read at start-up by a server the run setup called',
  });
  expect(selectChecks({ ...cov, servers: undefined }, ['ignore-config']).kind).toBe('all'); // coverage of an older harness: never reached
  expect(
    selectChecks({ ...cov, servers: [{ startup: ['ignore-config'], tags: [SWEEP_TAG] }] }, ['ignore-config']).kind,
  ).toBe('none'); // no check called it
});

test('the --grep for selected checks matches exactly those titles', () => {
  const re = new RegExp(grepForTitles(['SHAPE-1 a (x) [y]', 'ROUTE-2 GET /a/b/ exists']));
  expect(re.test('shapes.spec.ts SHAPE-1 a (x) [y]')).toBe(true);
  expect(re.test('routes.spec.ts ROUTE-2 GET /a/b/ exists')).toBe(true);
  expect(re.test('routes.spec.ts ROUTE-2 GET /a/b/ exists and more')).toBe(false);
  expect(re.test('shapes.spec.ts XSHAPE-1 a (x) [y]')).toBe(false);
});

test('verdicts: killed, survived, undecided, collateral and declared overlaps', () => {
  const m = MUTANTS.find((x) => x.id === 'external-link-token-stub')!; // GONE-1, also fails GONE-8
  const clean = fakeResults([
    ['GONE-1', 'g1', 'pass'],
    ['GONE-8', 'g8', 'pass'],
    ['SHAPE-1', 's1', 'pass'],
    ['ROUTE-2', 'r2', 'fail'],
  ]);
  expect(judgeClean(clean).ok).toBe(false);
  const killed = judgeMutant(
    m,
    fakeResults([
      ['GONE-1', 'g1', 'fail'],
      ['GONE-8', 'g8', 'fail'],
      ['SHAPE-1', 's1', 'pass'],
      ['ROUTE-2', 'r2', 'fail'],
    ]),
    clean,
  );
  expect(killed).toMatchObject({ status: 'killed', collateral: [], overlapsMissed: [] });
  const messy = judgeMutant(
    m,
    fakeResults([
      ['GONE-1', 'g1', 'fail'],
      ['GONE-8', 'g8', 'pass'],
      ['SHAPE-1', 's1', 'fail'],
      ['SQL-1', 'q1', 'error'],
    ]),
    clean,
  );
  expect(messy.collateral.map((c) => c.clause)).toEqual(['SHAPE-1']);
  expect(messy.undecidedElsewhere.map((c) => c.clause)).toEqual(['SQL-1']);
  expect(messy.overlapsMissed).toEqual(['GONE-8']);
  expect(judgeMutant(m, fakeResults([['GONE-1', 'g1', 'pass']])).status).toBe('survived');
  expect(judgeMutant(m, fakeResults([['GONE-1', 'g1', 'error']])).status).toBe('undecided');
  expect(judgeMutant(m, undefined).status).toBe('no-results');
  // Only assertion warnings on its clause (evidence only inferred): counted apart, not a kill; a clean run with warnings is broken.
  const warned = fakeResults([['GONE-1', 'g1', 'pass']]);
  warned.tests[0]!.assertionWarnings = [{ clause: 'GONE-1', message: 'w', evidence: { class: 'inferred', cite: 'x' } }];
  warned.clauses = clauseTable(warned.tests);
  expect(judgeMutant(m, warned, fakeResults([['GONE-1', 'g1', 'pass']])).status).toBe('warned');
  expect(judgeClean(warned)).toMatchObject({
    ok: false,
    broken: [{ clause: 'GONE-1', outcome: '1 assertion warning(s)' }],
  });
});

test("a selected run is completed by the clean run's other checks", () => {
  const clean = fakeResults([
    ['GONE-1', 'g1', 'pass'],
    ['SHAPE-1', 's1', 'pass'],
    ['SHAPE-1', 's2', 'pass'],
  ]);
  const merged = mergeResults(clean, fakeResults([['SHAPE-1', 's2', 'fail']]));
  expect(merged.tests.map((t) => `${t.title}:${t.outcome}`).sort()).toEqual(['g1:pass', 's1:pass', 's2:fail']);
  expect(merged.clauses.find((c) => c.id === 'SHAPE-1')?.outcome).toBe('fail');
  expect(merged.totals).toMatchObject({ pass: 2, fail: 1, tests: 3 });
});

test('checks sharing worker-scoped data are selected together; the rate family stays per check', () => {
  const fileOf = new Map([
    ['SHAPE-1 a', 'shapes.spec.ts'],
    ['SHAPE-3 c', 'shapes.spec.ts'],
    ['RATE-1 x', 'rate.spec.ts'],
    ['RATE-3 y', 'rate.spec.ts'],
  ]);
  const files = { fileOf, shared: sharedStateFiles(join(import.meta.dirname, '..', 'suites')) };
  expect(files.shared.has('rate.spec.ts')).toBe(false);
  expect(widen({ kind: 'some', titles: ['RATE-1 x'] }, files)).toEqual({ kind: 'some', titles: ['RATE-1 x'] });
  expect(files.shared.has('shapes.spec.ts'), 'shapes.spec.ts shares a worker-scoped world').toBe(true);
  expect(widen({ kind: 'some', titles: ['SHAPE-1 a'] }, files)).toEqual({
    kind: 'some',
    titles: ['SHAPE-1 a', 'SHAPE-3 c'],
  });
});
