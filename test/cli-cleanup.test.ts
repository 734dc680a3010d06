/**
 * The run's tables do not outlive it, black box: a run interrupted with SIGINT mid-run
 * exits 2 and leaves no `cf_<run id>_` table in the target's bases; `conformance clean`
 * sweeps the tables (and the bases) earlier runs left, only those older than --older-than
 * minutes, and never a table that is not the harness's.
 */
import { expect, test } from '@playwright/test';
import { newRunId } from '../src/runner/fixtures.js';
import { cli, serve, type Served } from './helpers/cli.js';

/** The target's API, as a user's script would call it. */
async function baseApi(s: Served, i: number) {
  const b = s.descriptor.bases[i]!;
  const t = await fetch(`${s.descriptor.url}/api/v2.1/dtable/app-access-token/`, {
    headers: { authorization: `Token ${b.api_token}` },
  });
  const { access_token: token } = (await t.json()) as { access_token: string };
  const gw = (sub: string, init: RequestInit = {}) =>
    fetch(`${s.descriptor.url}/api-gateway/api/v2/dtables/${b.uuid}/${sub}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
  return {
    async tables(): Promise<string[]> {
      const r = await gw('metadata/');
      return ((await r.json()) as { metadata: { tables: { name: string }[] } }).metadata.tables.map((x) => x.name);
    },
    async create(name: string): Promise<void> {
      const r = await gw('tables/', {
        method: 'POST',
        body: JSON.stringify({ table_name: name, columns: [{ column_name: 'Name', column_type: 'text' }] }),
      });
      expect(r.status, `create ${name}`).toBeLessThan(300);
    },
  };
}

async function allTables(s: Served): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < s.descriptor.bases.length; i++) names.push(...(await (await baseApi(s, i)).tables()));
  return names;
}

test('a run interrupted by SIGINT exits 2 and removes its tables', async () => {
  test.setTimeout(300_000);
  const server = await serve();
  try {
    let runId = '';
    let sent = false;
    let stdout = '';
    const r = await cli(
      ['run', '--target-file', server.file, '--report-dir', `${server.file}.reports`, '--clauses', '/^(?!RATE-)/'],
      {
        onStart: (child) => {
          // Interrupt once checks are running (a few have finished): fixtures and scratch tables exist.
          child.stdout!.on('data', (d: Buffer) => {
            stdout += d;
            if (!sent && (stdout.match(/^ {2}[✓✘⚠↷]/gm) ?? []).length >= 5) {
              sent = true;
              child.kill('SIGINT');
            }
          });
        },
        onStderr: (text) => {
          runId ||= /conformance: run (\S+) against/.exec(text)?.[1] ?? '';
        },
      },
    );
    expect(sent, r.output).toBe(true);
    expect(runId).toMatch(/^\d{14}_[a-z0-9]{4}$/);
    expect(r.code, r.output).toBe(2);
    expect(r.stderr).toMatch(/SIGINT — stopping the checks, then cleaning up/);
    expect(r.stderr).toMatch(/removed \d+ table\(s\) of this run/);
    const left = (await allTables(server)).filter((n) => n.startsWith(`cf_${runId}_`));
    expect(left, 'tables of the interrupted run left in the bases').toEqual([]);
  } finally {
    await server.stop();
  }
});

test('conformance clean sweeps leftovers of earlier runs older than --older-than, and nothing else', async () => {
  test.setTimeout(180_000);
  const server = await serve();
  try {
    const old = `${newRunId(new Date(Date.now() - 3 * 3600_000)).tablePrefix}types`;
    const recent = `${newRunId(new Date()).tablePrefix}types`;
    const b0 = await baseApi(server, 0);
    const b1 = await baseApi(server, 1);
    await b0.create(old);
    await b1.create(`${old}_b`);
    await b0.create(recent);
    await b0.create('cf_notes_by_a_person');
    await b0.create('keep_me');
    // A base an interrupted ACCT-8 check left behind, and one of a run still going.
    const createBase = async (name: string) => {
      const r = await fetch(`${server.descriptor.url}/api/v2.1/dtables/`, {
        method: 'POST',
        headers: {
          authorization: `Token ${String(server.descriptor.account_token)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ name, workspace_id: '1' }),
      });
      expect(r.status, `create base ${name}`).toBe(201);
    };
    const oldBase = old.replace(/types$/, 'base_0a1b');
    const recentBase = recent.replace(/types$/, 'base_0a1b');
    await createBase(oldBase);
    await createBase(recentBase);

    const first = await cli(['clean', '--target-file', server.file, '--older-than', '60']);
    expect(first.code, first.output).toBe(0);
    expect(first.stdout).toMatch(/removed 2 table\(s\)/);
    expect(first.stdout).toMatch(new RegExp(`removed 1 base\\(s\\):\\n  ${oldBase}\\n`));
    let names = await allTables(server);
    expect(names).not.toContain(old);
    expect(names).not.toContain(`${old}_b`);
    expect(names).toEqual(expect.arrayContaining([recent, 'cf_notes_by_a_person', 'keep_me']));

    const all = await cli(['clean', '--target-file', server.file, '--older-than', '0']);
    expect(all.code, all.output).toBe(0);
    expect(all.stdout).toMatch(new RegExp(`removed 1 base\\(s\\):\\n  ${recentBase}\\n`));
    names = await allTables(server);
    expect(names).not.toContain(recent);
    expect(names).toEqual(expect.arrayContaining(['cf_notes_by_a_person', 'keep_me']));

    const usage = await cli(['clean']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/clean needs --target or --target-file/);
    // Not a number: a usage error, not "nothing to remove" (NaN minutes, which no table is older than).
    const typo = await cli(['clean', '--target-file', server.file, '--older-than', 'abc']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/--older-than: a number of minutes, 0 or more/);
    expect(typo.stdout).not.toMatch(/nothing to remove/);
  } finally {
    await server.stop();
  }
});

test('conformance clean exits 2 at its preflight, naming what to fix (unreachable target, bad token)', async () => {
  test.setTimeout(120_000);
  const unreachable = await cli([
    'clean',
    '--target',
    'http://127.0.0.1:9',
    '--base',
    'uuid-0:api-token-0:Nowhere',
    '--older-than',
    '0',
  ]);
  expect(unreachable.code, unreachable.output).toBe(2);
  expect(unreachable.stderr).toMatch(/clean: preflight failed: the target http:\/\/127\.0\.0\.1:9 is not reachable/);
  expect(unreachable.stdout).not.toMatch(/nothing to remove/);
  const server = await serve();
  try {
    const b = server.descriptor.bases[0]!;
    const badToken = await cli([
      'clean',
      '--target',
      server.descriptor.url,
      '--base',
      `${b.uuid}:not-a-valid-api-token:${b.name}`,
      '--older-than',
      '0',
    ]);
    expect(badToken.code, badToken.output).toBe(2);
    expect(badToken.stderr).toMatch(
      new RegExp(
        `base #1 \\(UUID ${b.uuid}\\): its API token is refused \\(\\d+\\) — check the descriptor's bases\\[0\\]\\.api_token`,
      ),
    );
  } finally {
    await server.stop();
  }
});
