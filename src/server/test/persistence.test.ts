/** `--data FILE`: the base survives a restart on the same file, and so do the seeded credentials. */
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Db } from '../store/sqlite.js';
import { call, Kit } from './kit.js';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'conformance-persist-'));
});
test.afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('rows, structure and credentials survive a restart on the same --data file', async () => {
  const file = join(dir, 'base.sqlite');
  const first = await Kit.start({ dataFile: file });
  let ids: string[];
  let linkId: string;
  const baseToken = first.token;
  try {
    await first.createTable('Projects', [{ column_name: 'Title', column_type: 'text' }]);
    await first.createTable('Tasks', [
      { column_name: 'Name', column_type: 'text' },
      { column_name: 'State', column_type: 'single-select' },
      { column_name: 'No', column_type: 'auto-number' },
    ]);
    linkId = (
      await first.addColumn('Tasks', {
        column_name: 'Project',
        column_type: 'link',
        column_data: { other_table: 'Projects' },
      })
    ).data.link_id;
    await first.gwCall('POST', 'views/', {
      json: {
        table_name: 'Tasks',
        name: 'Open',
        filters: [{ column_name: 'State', filter_predicate: 'is', filter_term: 'open' }],
      },
    });
    ids = await first.append('Tasks', [
      { Name: 'write', State: 'open' },
      { Name: 'test', State: 'done' },
    ]);
    const [p] = await first.append('Projects', [{ Title: 'Harness' }]);
    await first.gwCall('POST', 'links/', {
      json: {
        table_name: 'Tasks',
        other_table_name: 'Projects',
        link_id: linkId,
        other_rows_ids_map: { [ids[0]!]: [p] },
      },
    });
    await first.sql("UPDATE Tasks SET Name = 'write more' WHERE Name = 'write'");
  } finally {
    await first.close();
  }

  const second = await Kit.start({ dataFile: file });
  try {
    const { url: _u1, ...d1 } = first.srv.descriptor;
    const { url: _u2, ...d2 } = second.srv.descriptor;
    expect(d2).toEqual(d1);
    expect(second.srv.ctx.creds).toEqual(first.srv.ctx.creds);
    const rows = await second.list('Tasks');
    expect(rows.map((r) => [r._id, r.Name, r.State, r.No])).toEqual([
      [ids![0], 'write more', 'open', '0001'],
      [ids![1], 'test', 'done', '0002'],
    ]);
    expect(rows[0]!.Project).toEqual([{ row_id: expect.any(String), display_value: 'Harness' }]);
    expect((await second.list('Tasks', { view_name: 'Open' })).map((r) => r.Name)).toEqual(['write more']);
    const options = (await second.table('Tasks')).columns
      .find((c) => c.name === 'State')!
      .data.options.map((o: { name: string }) => o.name);
    expect(options).toEqual(['open', 'done']);
    // The auto-number continues; a base token issued before the restart is still valid.
    await second.append('Tasks', [{ Name: 'ship' }]);
    expect((await second.list('Tasks'))[2]!.No).toBe('0003');
    expect((await call(second.url, 'GET', `${second.gw}/metadata/`, { token: baseToken })).status).toBe(200);
    const login = await call(second.url, 'POST', '/api2/auth-token/', {
      form: { username: d1.username!, password: d1.password! },
    });
    expect(login.body.token).toBe(d1.account_token);
  } finally {
    await second.close();
  }
});

test('without --data each server starts empty with fresh credentials', async () => {
  const a = await Kit.start();
  const b = await Kit.start();
  try {
    expect(a.srv.descriptor.password).not.toBe(b.srv.descriptor.password);
    expect(a.base.uuid).not.toBe(b.base.uuid);
    await a.createTable('Only In A', []);
    expect((await b.metadata()).tables).toEqual([]);
  } finally {
    await a.close();
    await b.close();
  }
});

test("a data file whose password hashes have scrypt's default cost (written before the cost was lowered) still signs in", async () => {
  const file = join(dir, 'old-hashes.sqlite');
  const first = await Kit.start({ dataFile: file });
  const { username, password } = first.srv.descriptor;
  await first.close();
  // Rewrite the user's hash in the earlier form: `scrypt$salt$digest` with Node's default cost.
  const salt = randomBytes(16);
  const db = new Db(file);
  db.prepare('UPDATE users SET password_hash = ? WHERE email = ?').run(
    `scrypt$${salt.toString('hex')}$${scryptSync(password!, salt, 32).toString('hex')}`,
    username,
  );
  db.close();
  const second = await Kit.start({ dataFile: file });
  try {
    const login = await call(second.url, 'POST', '/api2/auth-token/', {
      form: { username: username!, password: password! },
    });
    expect(login.status).toBe(200);
    const wrong = await call(second.url, 'POST', '/api2/auth-token/', {
      form: { username: username!, password: `${password}x` },
    });
    expect(wrong.status).toBe(400);
  } finally {
    await second.close();
  }
});
