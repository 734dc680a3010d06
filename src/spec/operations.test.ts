/**
 * The endpoint table against the real service's documented operations
 * (spec/openapi-operations.json, derived by scripts/derive-openapi-list.ts): every documented
 * operation is a row of the table or out of scope with a reason, never both; rows name
 * operations that exist, with the documented method, path and path parameters. Also the
 * response shapes and the JS client's method table against the rows they name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatOperations, operationsFromYaml, sortOperations, type DocumentedOperation } from '../../scripts/derive-openapi-list.js';
import { CLIENT_METHODS, SKIPPED_METHODS } from './client-methods.js';
import { ENDPOINTS, endpoint, pathParams, type Endpoint } from './endpoints/index.js';
import { OUT_OF_SCOPE } from './out-of-scope.js';
import { NOT_JSON, RESPONSES } from './responses/index.js';

const FILE = join(import.meta.dirname, '..', '..', 'spec', 'openapi-operations.json');

/** The documented operations; a missing or unreadable file fails the test that asks. */
function documented(): DocumentedOperation[] {
  expect(existsSync(FILE), `${FILE} is missing: derive it with scripts/derive-openapi-list.ts from seatable-api-php's openapi_input/`).toBe(true);
  const ops = JSON.parse(readFileSync(FILE, 'utf8')) as DocumentedOperation[];
  expect(Array.isArray(ops) && ops.length > 0, `${FILE} lists no operations`).toBe(true);
  return ops;
}

const key = (file: string, id: string) => `${file} ${id}`;
/** A documented path without its query suffix, parameter names blanked: `/a/{}/b/`. */
const shape = (path: string) => path.split('?')[0]!.replace(/\{[^}]+\}/g, '{}');
const rowOf = (o: DocumentedOperation) => ENDPOINTS.find((e) => e.openapi?.file === o.file && e.openapi.operationId === o.id);
const outOf = (o: DocumentedOperation) => OUT_OF_SCOPE.find((x) => x.file === o.file && x.operationId === o.id);

test('the documented-operations file is well-formed: sorted by file, path, method; one entry per operationId of a file', () => {
  const ops = documented();
  for (const o of ops) expect(o.id && o.file && o.method && o.path.startsWith('/'), JSON.stringify(o)).toBeTruthy();
  expect(ops.map((o) => key(o.file, o.id)).filter((k, i, all) => all.indexOf(k) !== i), 'duplicate file + operationId').toEqual([]);
  expect(JSON.stringify(ops), 'order (file, path, method)').toBe(JSON.stringify(sortOperations(ops)));
  expect(readFileSync(FILE, 'utf8'), 'the generator\'s format').toBe(formatOperations(ops));
});

test('every documented operation is an endpoint row with its method and path, or out of scope with a reason', () => {
  const offenders: string[] = [];
  for (const o of documented()) {
    const row = rowOf(o);
    if (row) {
      if (row.method !== o.method) offenders.push(`${o.id} (${o.file}): row ${row.id} has ${row.method}, documented ${o.method}`);
      if (shape(row.path) !== shape(o.path)) offenders.push(`${o.id} (${o.file}): row ${row.id} has ${row.path}, documented ${o.path}`);
      continue;
    }
    const out = outOf(o);
    if (!out) offenders.push(`${o.id} (${o.file}): ${o.method} ${o.path} is neither in ENDPOINTS nor in OUT_OF_SCOPE`);
    else if (!out.reason.trim()) offenders.push(`${o.id} (${o.file}): out of scope without a reason`);
  }
  expect(offenders).toEqual([]);
});

test('a documented path\'s query suffix is a required query parameter of the row (uploadFile: ?ret-json=1)', () => {
  for (const o of documented().filter((x) => x.path.includes('?'))) {
    const row = rowOf(o);
    if (!row) continue;
    for (const name of new URLSearchParams(o.path.split('?')[1]).keys()) {
      expect(row.params?.some((p) => p.in === 'query' && p.name === name && p.required), `${row.id}: query parameter ${name} of ${o.path}`).toBe(true);
    }
  }
});

test('every row with `openapi` names a documented operation, and no two rows name the same one', () => {
  const known = new Set(documented().map((o) => key(o.file, o.id)));
  const named = ENDPOINTS.filter((e) => e.openapi).map((e) => ({ id: e.id, k: key(e.openapi!.file, e.openapi!.operationId) }));
  expect(named.filter((n) => !known.has(n.k)).map((n) => `${n.id} → ${n.k}`)).toEqual([]);
  expect(named.filter((n, i) => named.findIndex((m) => m.k === n.k) !== i).map((n) => `${n.id} → ${n.k}`)).toEqual([]);
});

test('no documented operation is both in the table and out of scope; out of scope names only documented operations, once', () => {
  const ops = documented();
  const known = new Set(ops.map((o) => key(o.file, o.id)));
  expect(ops.filter((o) => rowOf(o) && outOf(o)).map((o) => `${o.id} (${o.file})`)).toEqual([]);
  expect(OUT_OF_SCOPE.filter((x) => !known.has(key(x.file, x.operationId))).map((x) => `${x.operationId} (${x.file})`)).toEqual([]);
  const keys = OUT_OF_SCOPE.map((x) => key(x.file, x.operationId));
  expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
});

test('every operation of the base, authentication and file OpenAPI files is a row of the table', () => {
  const whole = ['base_operations.yaml', 'authentication.yaml', 'file_operations.yaml'];
  const missing = documented().filter((o) => whole.includes(o.file) && !rowOf(o)).map((o) => `${o.id} (${o.file})`);
  expect(missing).toEqual([]);
});

test('every documented row lists its params; path params equal the template\'s {…} names', () => {
  const problems: string[] = [];
  for (const e of ENDPOINTS) {
    if (e.openapi && !e.params) problems.push(`${e.id}: documented, no params`);
    if (!e.params) continue;
    const inPath = e.params.filter((p) => p.in === 'path').map((p) => p.name).sort();
    const template = pathParams(e.path).sort();
    if (JSON.stringify(inPath) !== JSON.stringify(template)) problems.push(`${e.id}: path params ${inPath.join(',')} ≠ template ${template.join(',')}`);
    if (e.params.some((p) => p.in === 'path' && !p.required)) problems.push(`${e.id}: an optional path param`);
    const names = e.params.map((p) => `${p.in}:${p.name}`);
    if (new Set(names).size !== names.length) problems.push(`${e.id}: a parameter twice`);
  }
  expect(problems).toEqual([]);
});

test('row ids are unique', () => {
  const ids = ENDPOINTS.map((e) => e.id);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
});

test('every documented row has a response shape or is known not to answer JSON; shapes name rows', () => {
  const ids = new Set(ENDPOINTS.map((e) => e.id));
  expect(Object.keys(RESPONSES).filter((id) => !ids.has(id)), 'shapes of unknown rows').toEqual([]);
  expect(Object.keys(NOT_JSON).filter((id) => !ids.has(id) || id in RESPONSES)).toEqual([]);
  expect(ENDPOINTS.filter((e) => e.openapi && !(e.id in RESPONSES) && !(e.id in NOT_JSON)).map((e) => e.id)).toEqual([]);
});

test('response shapes are lenient where the sources differ', () => {
  const parse = (id: string, v: unknown) => RESPONSES[id]!.safeParse(v).success;
  // Extra fields pass; a missing documented field does not.
  expect(parse('createTempApiToken', { api_token: 'x'.repeat(40), extra: 1 })).toBe(true);
  expect(parse('createTempApiToken', {})).toBe(false);
  // Custom-folder upload link: wrapped (OpenAPI) and unwrapped (Python client).
  const link = { upload_link: 'https://h/seafhttp/upload-api/t', parent_path: '/asset/u/custom', relative_path: '/' };
  expect(parse('customUploadLink', { dirent: { ...link, workspace_id: 1 } })).toBe(true);
  expect(parse('customUploadLink', link)).toBe(true);
  // Workspace ids: integers, and "" for the pseudo-workspaces.
  expect(parse('listWorkspaces', { workspace_list: [{ id: '', name: 'starred', type: 'starred' }, { id: 3, name: 'personal', type: 'personal' }] })).toBe(true);
  // Team info before and after the 6.2 rename.
  const team = { org_id: 1, org_name: 'T', role: 'org_default', storage_quota: 1, storage_usage: 0, member_quota: 1, member_usage: 1, active_members: 1, row_usage: 0, row_total: -1, big_data_row_limit: -1, big_data_total_rows: 0, big_data_total_storage: 0, scripts_running_count: 0 };
  expect(parse('getTeamInfo', { ...team, scripts_running_limit: -1 })).toBe(true);
  expect(parse('getTeamInfo', { ...team, scripts_running_total: -1 })).toBe(true);
});

test('the JS client\'s methods name rows with their method and path, and `documented` follows the rows', () => {
  const problems: string[] = [];
  const check = (m: string, c: { method: string; path: string; endpoint?: string }) => {
    if (!c.endpoint) return;
    const e: Endpoint | undefined = ENDPOINTS.find((x) => x.id === c.endpoint);
    if (!e) return problems.push(`${m}: no row ${c.endpoint}`);
    if (e.method !== c.method || e.path !== c.path.split('?')[0]) problems.push(`${m}: ${c.method} ${c.path} is not ${e.id} (${e.method} ${e.path})`);
  };
  for (const m of CLIENT_METHODS) {
    m.calls.forEach((c) => check(m.name, c));
    if (m.legacy) check(m.name, m.legacy);
    const documentedRoutes = m.calls.every((c) => c.endpoint !== undefined && endpoint(c.endpoint).openapi !== undefined);
    if (m.documented !== documentedRoutes) problems.push(`${m.name}: documented is ${m.documented}, its routes say ${documentedRoutes}`);
    if (m.via && !CLIENT_METHODS.some((x) => x.name === m.via)) problems.push(`${m.name}: via unknown ${m.via}`);
  }
  const names = CLIENT_METHODS.map((m) => m.name);
  expect(names.filter((n, i) => names.indexOf(n) !== i || n in SKIPPED_METHODS)).toEqual([]);
  expect(problems).toEqual([]);
});

test('the YAML reader finds path, method and operationId by indentation and ignores the rest', () => {
  const yaml = [
    'openapi: 3.0.0',
    'components:',
    '  schemas:',
    '    x:',
    '      operationId: notAnOperation',
    'paths:',
    '  # Rows',
    '  /a/{id}/:',
    '    parameters:',
    '      - name: id',
    '    get:',
    '      summary: |',
    '        post:',
    '          operationId: fake',
    '      operationId: getA',
    '    delete:',
    "      operationId: 'deleteA'",
    "  '/b/?x=1':",
    '    post:',
    '      description: >-',
    '        text',
    '      operationId: postB # trailing comment',
    'tags: []',
  ].join('\n');
  expect(operationsFromYaml(yaml, 'f.yaml')).toEqual([
    { id: 'getA', file: 'f.yaml', method: 'GET', path: '/a/{id}/' },
    { id: 'deleteA', file: 'f.yaml', method: 'DELETE', path: '/a/{id}/' },
    { id: 'postB', file: 'f.yaml', method: 'POST', path: '/b/?x=1' },
  ]);
  expect(() => operationsFromYaml('paths:\n  /a/:\n    get:\n      summary: x\n', 'f.yaml')).toThrow(/no operationId/);
  expect(() => operationsFromYaml('paths:\n  /a/:\n    get: { operationId: x }\n', 'f.yaml')).toThrow(/flow-style/);
});
