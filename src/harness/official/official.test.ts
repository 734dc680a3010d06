/**
 * The CLIENT family calls every public method of the official client: the installed
 * package's `Base` class is what src/spec/client-methods.ts lists, and each listed method is
 * called by a check (or named by one that skips it, with the reason). Failures of the
 * client's calls become violations, undecided transport failures, or missing fixtures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { CLIENT_METHODS, JS_CLIENT, SKIPPED_METHODS } from '../../spec/client-methods.js';
import { Undecided } from '../outcome.js';
import type { RunState } from '../state.js';
import { failureOf } from './failures.js';
import { outOfScope } from './scope.js';
import { clientAxios, SDK_VERSION } from './sdk.js';

const SUITES = join(import.meta.dirname, '..', '..', '..', 'suites');
const suiteText = readdirSync(SUITES)
  .filter((f) => /^client.*\.spec\.ts$/.test(f))
  .map((f) => readFileSync(join(SUITES, f), 'utf8'))
  .join('\n');

test('the installed client is the one described, and its Base class has exactly the methods listed or set aside', () => {
  expect(SDK_VERSION).toBe(JS_CLIENT.version);
  const { Base } = createRequire(import.meta.url)('seatable-api') as { Base: { prototype: object } };
  const own = Object.getOwnPropertyNames(Base.prototype).sort();
  expect(own).toEqual([...CLIENT_METHODS.map((m) => m.name), ...Object.keys(SKIPPED_METHODS)].sort());
});

test('every documented method is called by a CLIENT check and named in its scope; undocumented ones are named and skipped', () => {
  const scoped = new Set(
    [...suiteText.matchAll(/inScope\(\s*state,([^)]*)\)/g)].flatMap((m) =>
      [...m[1]!.matchAll(/'(\w+)'/g)].map((x) => x[1]!),
    ),
  );
  const problems: string[] = [];
  for (const m of CLIENT_METHODS) {
    if (!scoped.has(m.name)) problems.push(`${m.name}: no check names it in inScope()`);
    const called = new RegExp(`\\.${m.name}\\(`).test(suiteText);
    if (m.documented && !called) problems.push(`${m.name}: no check calls it`);
  }
  expect(problems).toEqual([]);
});

test('a method whose route the OpenAPI no longer documents is out of scope, with that reason; the others are in at 6.2', () => {
  const state = { apiVersion: '6.2' } as RunState;
  expect(outOfScope(state, 'getDTable')).toMatch(/no longer documents/);
  expect(
    CLIENT_METHODS.filter((m) => m.documented)
      .map((m) => outOfScope(state, m.name))
      .filter(Boolean),
  ).toEqual([]);
});

const config = {
  method: 'put',
  baseURL: 'http://127.0.0.1:1/api-gateway',
  url: '/api/v2/dtables/u/columns/',
  headers: {},
} as never;

test('a refused call is a violation naming the call, its status and body; no answer at all is undecided', () => {
  const refused = new (clientAxios().AxiosError)('Request failed with status code 404', 'ERR_BAD_REQUEST', config, {}, {
    status: 404,
    data: { error_message: 'Not found.' },
    headers: {},
    statusText: '',
    config,
  } as never);
  const f = failureOf(refused, 'renameColumn(T, k, X)');
  expect(f).toEqual({
    kind: 'answer',
    message:
      'renameColumn(T, k, X): the client\'s call PUT /api-gateway/api/v2/dtables/u/columns/ was answered 404: {"error_message":"Not found."}',
  });
  const reset = failureOf(new (clientAxios().AxiosError)('socket hang up', 'ECONNRESET', config), 'getRow()');
  expect(reset.kind === 'transport' && reset.undecided instanceof Undecided && reset.undecided.kind).toBe('reset');
  const timeout = failureOf(
    new (clientAxios().AxiosError)('timeout of 50000ms exceeded', 'ECONNABORTED', config),
    'getRow()',
  );
  expect(timeout.kind === 'transport' && timeout.undecided.kind).toBe('timeout-headers');
});

test("the client's own rejection and a throw on an answer it cannot read are violations", () => {
  expect(failureOf({ error_message: 'column Refs is not a link column' }, 'getColumnLinkId(T, Refs)')).toEqual({
    kind: 'answer',
    message: 'getColumnLinkId(T, Refs): the client rejected the call: column Refs is not a link column',
  });
  const thrown = failureOf(new TypeError("Cannot read properties of undefined (reading 'reduce')"), 'query(SELECT …)');
  expect(thrown.kind === 'answer' && thrown.message).toMatch(
    /^query\(SELECT …\): the client failed on the target's answer \(TypeError: /,
  );
});
