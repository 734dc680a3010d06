/** Files of a base (ACCT-9): upload link, the upload itself, download link, delete; answers parsed with the documented shapes. */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { RESPONSES } from '../../spec/index.js';
import { Acct, multipart } from './account-kit.js';
import { expectClientError } from './kit.js';

let a: Acct;
test.beforeAll(async () => {
  a = await Acct.start();
});
test.afterAll(async () => {
  await a.close();
});

const api = () => a.creds.bases[0]!.api_token;
const shaped = (id: string, body: unknown) => {
  const r = RESPONSES[id]!.safeParse(body);
  expect(r.success, `${id}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
  return body as any;
};
const local = (url: string) => url.slice(a.url.length);

async function uploadLink() {
  return shaped('getUploadLink', await a.ok('GET', '/api/v2.1/dtable/app-upload-link/', api()));
}

async function upload(name: string, data: Uint8Array | string, fields: Record<string, string> = {}) {
  const l = await uploadLink();
  return multipart(
    a.url,
    'POST',
    `${local(l.upload_link)}?ret-json=1`,
    undefined,
    { parent_dir: l.parent_path, relative_path: l.file_relative_path, ...fields },
    { file: { name, data } },
  );
}

test('ACCT-9 an uploaded file is served by its download link byte for byte, and deleting it removes it', async () => {
  const l = await uploadLink();
  expect(l).toMatchObject({ workspace_id: 1, parent_path: `/asset/${a.creds.bases[0]!.uuid}` });
  expect(l.file_relative_path).toMatch(/^files\/\d{4}-\d{2}$/);
  expect(l.img_relative_path).toMatch(/^images\/\d{4}-\d{2}$/);
  const bytes = randomBytes(3000);
  const up = await multipart(
    a.url,
    'POST',
    `${local(l.upload_link)}?ret-json=1`,
    undefined,
    { parent_dir: l.parent_path, relative_path: l.file_relative_path, replace: '0' },
    { file: { name: 'data.bin', data: bytes } },
  );
  expect(up.status, up.text).toBe(200);
  expect(shaped('uploadFile', up.body)).toEqual([
    { name: 'data.bin', size: 3000, id: expect.stringMatching(/^[0-9a-f]{40}$/) },
  ]);
  const path = `/${l.file_relative_path}/data.bin`;
  const dl = shaped(
    'getFileDownloadLink',
    await a.ok('GET', `/api/v2.1/dtable/app-download-link/?path=${encodeURIComponent(path)}`, api()),
  );
  const got = await a.bytes(local(dl.download_link), undefined);
  expect(got.status).toBe(200);
  expect(got.data.equals(bytes)).toBe(true);
  expect(
    shaped(
      'deleteBaseAsset',
      await a.ok('DELETE', `/api/v2.1/dtable/app-asset/?path=${encodeURIComponent(path)}`, api()),
    ),
  ).toEqual({ success: true });
  expect((await a.bytes(local(dl.download_link), undefined)).status).toBe(404);
  expectClientError(await a.get(`/api/v2.1/dtable/app-download-link/?path=${encodeURIComponent(path)}`, api()), 404);
  expectClientError(await a.call('DELETE', `/api/v2.1/dtable/app-asset/?path=${encodeURIComponent(path)}`, api()), 404);
});

test('ACCT-9 an upload without replace keeps the existing file and takes a free name; with replace=1 it overwrites', async () => {
  expect((await upload('twice.txt', 'one', { replace: '1' })).body[0].name).toBe('twice.txt');
  expect((await upload('twice.txt', 'two')).body[0].name).toBe('twice (1).txt');
  expect((await upload('twice.txt', 'three', { replace: '1' })).body[0]).toMatchObject({ name: 'twice.txt', size: 5 });
  const month = (await uploadLink()).file_relative_path;
  const read = async (name: string) => {
    const dl = await a.ok(
      'GET',
      `/api/v2.1/dtable/app-download-link/?path=/${month}/${encodeURIComponent(name)}`,
      api(),
    );
    return (await a.bytes(local(dl.download_link), undefined)).data.toString();
  };
  expect([await read('twice.txt'), await read('twice (1).txt')]).toEqual(['three', 'two']);
});

test('ACCT-9 bad uploads and calls are refused with nothing written', async () => {
  const l = await uploadLink();
  const path = local(l.upload_link);
  const count = () => (a.srv.ctx.db.prepare('SELECT count(*) AS n FROM assets').get() as { n: number }).n;
  const before = count();
  const cases: [Record<string, string>, { name: string; data: string } | undefined, number][] = [
    [{ parent_dir: l.parent_path, relative_path: 'files/x' }, undefined, 400], // no file
    [{ relative_path: 'files/x' }, { name: 'a.txt', data: 'a' }, 400], // no parent_dir
    [
      { parent_dir: '/asset/00000000-0000-0000-0000-000000000000', relative_path: 'files/x' },
      { name: 'a.txt', data: 'a' },
      400,
    ], // another base
    [{ parent_dir: l.parent_path, relative_path: '../../x' }, { name: 'a.txt', data: 'a' }, 400],
    [{ parent_dir: l.parent_path, relative_path: 'files/x', replace: 'maybe' }, { name: 'a.txt', data: 'a' }, 400],
    [{ parent_dir: l.parent_path, relative_path: 'files/x' }, { name: '..', data: 'a' }, 400],
  ];
  for (const [fields, file, status] of cases)
    expectClientError(await multipart(a.url, 'POST', path, undefined, fields, file ? { file } : {}), status);
  expectClientError(
    await multipart(
      a.url,
      'POST',
      '/seafhttp/upload-api/00000000-0000-0000-0000-000000000000',
      undefined,
      { parent_dir: l.parent_path },
      { file: { name: 'a.txt', data: 'a' } },
    ),
    403,
  );
  expect(count()).toBe(before);
  expectClientError(await a.get('/api/v2.1/dtable/app-download-link/', api()), 400);
  expectClientError(await a.get('/api/v2.1/dtable/app-download-link/?path=/', api()), 400);
  expectClientError(await a.get('/api/v2.1/dtable/app-download-link/?path=/../x', api()), 400);
  expectClientError(await a.call('DELETE', '/api/v2.1/dtable/app-asset/', api()), 400);
  expectClientError(await a.get('/seafhttp/files/00000000-0000-0000-0000-000000000000/a.txt', undefined), 403);
  // A read-only API token reads but gets no upload link and deletes nothing.
  const ro = (
    await a.call(
      'POST',
      `/api/v2.1/workspace/1/dtable/${encodeURIComponent(a.creds.bases[0]!.name)}/api-tokens/`,
      a.admin,
      { form: { app_name: 'files-ro', permission: 'r' } },
    )
  ).body.api_token as string;
  expectClientError(await a.get('/api/v2.1/dtable/app-upload-link/', ro), 403);
  expectClientError(await a.call('DELETE', '/api/v2.1/dtable/app-asset/?path=/images/2024-01/seed.png', ro), 403);
  expect((await a.get('/api/v2.1/dtable/app-download-link/?path=/images/2024-01/seed.png', ro)).status).toBe(200);
});

test('ACCT-9 an upload link reaches only its own base', async () => {
  const l = await uploadLink();
  const other = a.creds.bases[1]!.uuid;
  expectClientError(
    await multipart(
      a.url,
      'POST',
      local(l.upload_link),
      undefined,
      { parent_dir: `/asset/${other}`, relative_path: 'files/x' },
      { file: { name: 'a.txt', data: 'a' } },
    ),
    400,
  );
  expect(
    a.srv.ctx.db.prepare("SELECT count(*) AS n FROM assets WHERE base_uuid = ? AND path LIKE 'files/%'").get(other),
  ).toEqual({ n: 0 });
});
