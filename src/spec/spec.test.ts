/**
 * The facts module against the specification it is derived from — the project's own copy in
 * spec/ (a missing file fails, never skips) — and that copy against ../shared/spec where that
 * folder is beside the repository: every clause once, every named endpoint with its methods,
 * every removed endpoint, the rate limits of §8.1 and the releases of §9.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLAUSES, ENDPOINTS, RATE_LIMITS, RELEASES, REMOVED, SIZE_LIMITS, behaviourAt, EMULATED_VERSIONS } from './index.js';

const SPEC = join(import.meta.dirname, '..', '..', 'spec');
const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'spec');
/** The specification's files, as the project carries them (README, --help and reports link here). */
const SPEC_FILES = ['base-data-api.md', 'clauses.md', 'api-shapes.md', 'target-descriptor.md'] as const;
const read = (f: string) => readFileSync(join(SPEC, f), 'utf8');

test('the project carries the specification: spec/ holds every file of it', () => {
  for (const f of [...SPEC_FILES, 'clauses-extended.md', 'openapi-operations.json']) expect(existsSync(join(SPEC, f)), `spec/${f}`).toBe(true);
});

test('spec/ is in step with ../shared/spec where that folder exists', () => {
  test.skip(!existsSync(SHARED), `no ../shared/spec beside this clone (${SHARED}): nothing to compare with`);
  for (const f of SPEC_FILES) expect(read(f), `spec/${f} differs from ../shared/spec/${f}: copy it again`).toBe(readFileSync(join(SHARED, f), 'utf8'));
});

const clauseRows = (file: string) => [...read(file).matchAll(/^\| ([A-Z]+-\d+) \| (.+?) \| ([^|]+) \|$/gm)].map((m) => ({ id: m[1]!, text: m[2]!, source: m[3]!.trim() }));

test('every clause of clauses.md and clauses-extended.md appears exactly once, with its source', () => {
  const spec = clauseRows('clauses.md');
  const extended = clauseRows('clauses-extended.md');
  const ids = CLAUSES.map((c) => c.id);
  expect(new Set(ids).size, 'clause IDs are unique in src/spec').toBe(ids.length);
  expect([...ids].sort()).toEqual([...spec, ...extended].map((r) => r.id).sort());
  for (const r of spec) {
    const c = CLAUSES.find((x) => x.id === r.id)!;
    expect(c.table, r.id).toBe('spec');
    if (!r.id.startsWith('GONE-')) expect(c.source, `${r.id} source`).toBe(r.source);
  }
  for (const r of extended) {
    const c = CLAUSES.find((x) => x.id === r.id)!;
    expect(c.table, r.id).toBe('extended');
    expect(c.source, `${r.id} source`).toBe(r.source);
    expect(c.text, `${r.id} text`).toBe(r.text);
  }
});

test('every endpoint the specification names by path is in the endpoint table with its methods', () => {
  const spec = read('base-data-api.md');
  const section = spec.slice(spec.indexOf('### 4.1'), spec.indexOf('### 4.3'));
  const rows = [...section.matchAll(/^\| ([A-Z, ]+|any) \| `([^`]+)`/gm)];
  expect(rows.length).toBeGreaterThan(15);
  for (const [, methods, path] of rows) {
    const normal = path!.replace(/\/api2\/auth-token$/, '/api2/auth-token/');
    const listed = methods === 'any' ? ['POST'] : methods!.split(',').map((m) => m.trim());
    for (const method of listed) {
      const found = ENDPOINTS.some((e) => e.method === method && e.path === normal && e.basis === 'spec');
      expect(found, `${method} ${normal} (spec §4.1/§4.2) in ENDPOINTS as a spec row`).toBe(true);
    }
  }
});

test('every removed endpoint of §4.4 has a removed-endpoint row with its release', () => {
  const spec = read('base-data-api.md');
  const section = spec.slice(spec.indexOf('### 4.4'), spec.indexOf('Data-collection-table calls were removed'));
  const releases = [...section.matchAll(/\| (\d\.\d) \|$/gm)].map((m) => m[1]!);
  for (const r of releases) expect(REMOVED.some((x) => x.removed === r), `a removal in ${r}`).toBe(true);
  expect(REMOVED.some((x) => x.clause === 'GONE-7' && x.removed === '4.4')).toBe(true);
});

test('rate limits per edition and size limits are those of §8.1 and §8.5', () => {
  const spec = read('base-data-api.md');
  const row = (label: string) => new RegExp(`\\| ${label}[^|]*\\| (\\d+|unlimited)[^|]*\\| (\\d+|unlimited)`).exec(spec)!;
  const num = (s: string) => (s === 'unlimited' ? null : Number(s));
  for (const [cls, label] of [['account', 'Account operations'], ['gateway', 'Base operations'], ['auth-token', 'Account token']] as const) {
    const m = row(label);
    expect(RATE_LIMITS.cloud[cls], `${cls} cloud`).toBe(num(m[1]!));
    expect(RATE_LIMITS.dedicated[cls], `${cls} dedicated`).toBe(num(m[2]!));
    expect(RATE_LIMITS['self-hosted'][cls], `${cls} self-hosted`).toBe(num(m[2]!));
  }
  expect(SIZE_LIMITS).toMatchObject({ listRows: 1000, appendRows: 1000, updateRows: 1000, deleteRows: 10_000, sqlList: 10_000, sqlWrite: null });
});

test('the version history has every release of §9 and names clauses that exist', () => {
  const spec = read('base-data-api.md');
  const versions = [...spec.slice(spec.indexOf('## 9.')).matchAll(/^\| (\d\.\d) \| (\d\d)\.(\d\d)\.(\d{4}) \|/gm)].map((m) => ({ v: m[1]!, date: `${m[4]}-${m[3]}-${m[2]}` }));
  expect(RELEASES.map((r) => ({ v: r.version, date: r.date })).sort((a, b) => a.v.localeCompare(b.v))).toEqual(versions.sort((a, b) => a.v.localeCompare(b.v)));
  const ids = new Set(CLAUSES.map((c) => c.id));
  for (const r of RELEASES) for (const c of r.clauses) expect(ids.has(c), `${r.version} names ${c}`).toBe(true);
});

test('behaviour switches follow §9 for the emulated releases', () => {
  expect(EMULATED_VERSIONS).toEqual(['4.4', '5.0', '5.1', '5.2', '5.3', '6.0', '6.1', '6.2']);
  expect(behaviourAt('6.2').scriptsRunningField).toBe('scripts_running_limit');
  expect(behaviourAt('6.1').scriptsRunningField).toBe('scripts_running_total');
  expect(behaviourAt('6.1').externalLinkBaseToken).toBe(false);
  expect(behaviourAt('6.0').externalLinkBaseToken).toBe(true);
  expect(behaviourAt('6.0').archiveByViewName).toBe(true);
  expect(behaviourAt('5.3').archiveByViewName).toBe(false);
  expect(behaviourAt('5.2').legacyFamilies).toBe(true);
  expect(behaviourAt('5.3').legacyFamilies).toBe(false);
  expect(behaviourAt('5.0').linkObjects).toBe(true);
  expect(behaviourAt('4.4').linkObjects).toBe(false);
  expect(behaviourAt('4.4').rowListOrderBy).toBe(false);
});
