/**
 * Files of a base (ACCT-9; file_operations.yaml), with the API token of base #1: an upload
 * link accepts a file, a download link serves the very bytes uploaded, deleting the asset
 * removes it (its download link stops working); the custom folder lists a file uploaded into
 * it and forgets it once deleted. Every file is named with the run's prefix and deleted again.
 */
import { randomBytes } from 'node:crypto';
import { fieldsOf, pathOf } from '../src/harness/api-tokens.js';
import { expectClientError, expectShape, expectStatus } from '../src/harness/assert.js';
import { fixtureMissing } from '../src/harness/outcome.js';
import { restored } from '../src/harness/restore.js';
import type { RunState } from '../src/harness/state.js';
import type { Reply, Target } from '../src/harness/target.js';
import { binaryBytes, download, downloadLinkOf, upload, uploadLinkOf } from '../src/harness/uploads.js';
import { clause, expect, test, ev } from '../src/harness/test.js';
import { RESPONSES } from '../src/spec/index.js';

const API = { api: 0 } as const;

/**
 * The custom-folder upload link's two forms (BOTH_READERS, src/spec/responses/files.ts): inside
 * `dirent` as the API description's example shows (the check's default evidence), or at the top
 * level, where the official Python client reads them.
 */
const CUSTOM_LINK_TOP_LEVEL = ev.client(
  'seatable/seatable-api-python seatable_api/main.py SeaTableAPI.upload_local_file_to_custom_folder (reads upload_link, parent_path and relative_path at the top level of the answer); inside dirent: OA62 file_operations#getCustomUploadLink',
);
const fileName = (state: RunState, label: string) =>
  `${state.tablePrefix}${label}_${randomBytes(2).toString('hex')}.bin`;
/** A file deleted now, or already gone (404), is no file left behind. */
const goneOrDeleted = (r: Reply) => r.status < 300 || r.status === 404;

/** Upload `bytes` as `name` through Get Upload Link; the asset's path (`/files/2025-01/<name>`) and the upload's answer. */
async function uploaded(
  target: Target,
  name: string,
  bytes: Buffer,
  asFixture: boolean,
): Promise<{ path: string; reply: Reply }> {
  const l = await target.call({ path: pathOf('getUploadLink'), auth: API });
  if (asFixture && l.status !== 200)
    throw fixtureMissing(`Get Upload Link answered ${l.status}: ${l.text.slice(0, 160)}`);
  expectStatus(l, 200, 'Get Upload Link');
  if (!asFixture) expectShape(l, RESPONSES.getUploadLink!, 'Get Upload Link');
  const link = uploadLinkOf(l.json(), 'file_relative_path');
  if (!link) throw fixtureMissing(`Get Upload Link answered no upload_link and parent_path: ${l.text.slice(0, 160)}`);
  const reply = await upload(target, link, name, bytes, [400, 403]);
  if (asFixture && reply.status !== 200)
    throw fixtureMissing(`the upload of ${name} answered ${reply.status}: ${reply.text.slice(0, 160)}`);
  return { path: `/${link.relative_path.replace(/^\/+|\/+$/g, '')}/${name}`, reply };
}

const downloadLink = (target: Target, path: string, expect: number[] = []) =>
  target.call({ path: pathOf('getFileDownloadLink'), auth: API, query: { path }, expect });
const deleteAsset = (target: Target, path: string, expect: number[] = []) =>
  target.call({ method: 'DELETE', path: pathOf('deleteBaseAsset'), auth: API, query: { path }, expect });

test(
  ...clause(
    'ACCT-9',
    'an upload link accepts a file and the download link serves the same bytes',
    ev.documented('OA62 file_operations#getUploadLink, #uploadFile, #getFileDownloadLink'),
  ),
  async ({ target, state }) => {
    const name = fileName(state, 'file');
    const bytes = binaryBytes();
    const { path, reply } = await uploaded(target, name, bytes, false);
    try {
      expectStatus(reply, 200, `upload ${name} through the upload link (?ret-json=1)`);
      const [entry] = expectShape(reply, RESPONSES.uploadFile!, "the upload's answer") as Record<string, unknown>[];
      expect.soft(entry?.name, "the upload's answer: name of the file").toBe(name);
      expect.soft(entry?.size, "the upload's answer: size of the file").toBe(bytes.length);
      const l = await downloadLink(target, path);
      expectStatus(l, 200, `Get File Download Link for ${path}`);
      expectShape(l, RESPONSES.getFileDownloadLink!, 'Get File Download Link');
      const got = await download(target, downloadLinkOf(l.json())!);
      expectStatus(got, 200, 'GET the download link');
      expect(
        got.res.body.equals(bytes),
        `the download link serves ${got.res.body.length} bytes that are not the ${bytes.length} bytes uploaded`,
      ).toBe(true);
    } finally {
      if (reply.status === 200)
        await restored(`the check's file ${path} deleted`, () => deleteAsset(target, path, [404]), goneOrDeleted);
    }
  },
);

test(
  ...clause(
    'ACCT-9',
    'Delete a Base Asset removes the file: its download link stops working and a new one is refused (4xx)',
    ev.documented('OA62 file_operations#deleteBaseAsset, #getFileDownloadLink'),
  ),
  async ({ target, state }) => {
    const name = fileName(state, 'gone');
    const bytes = binaryBytes(256);
    const { path } = await uploaded(target, name, bytes, true);
    let deleted = false;
    try {
      const l = await downloadLink(target, path);
      const link = l.status === 200 ? downloadLinkOf(l.json()) : undefined;
      if (!link)
        throw fixtureMissing(
          `Get File Download Link for the uploaded ${path} answered ${l.status}: ${l.text.slice(0, 160)}`,
        );
      const d = await deleteAsset(target, path);
      expectStatus(d, 200, `Delete a Base Asset ${path}`);
      deleted = true;
      expectShape(d, RESPONSES.deleteBaseAsset!, 'Delete a Base Asset');
      const old = await download(target, link, [403, 404]);
      expect(
        old.status >= 400 && old.status < 500,
        `the download link of the deleted ${path} answered ${old.status}${old.status === 200 && old.res.body.equals(bytes) ? ' with the deleted bytes' : ''} — must be refused`,
      ).toBe(true);
      // The API description documents no error answer here: any refusal will do.
      const again = await downloadLink(target, path, [400, 403, 404]);
      expectClientError(again, `Get File Download Link for the deleted ${path}`);
    } finally {
      if (!deleted)
        await restored(`the check's file ${path} deleted`, () => deleteAsset(target, path, [404]), goneOrDeleted);
    }
  },
);

/** The names of the files a custom-folder listing shows: `{dir, file}` (the OpenAPI) or `{dirent_list}`. */
function customFiles(body: unknown): string[] {
  const b = fieldsOf(body);
  if (Array.isArray(b.file)) return b.file.map((f) => String(fieldsOf(f).name));
  if (Array.isArray(b.dirent_list))
    return b.dirent_list
      .map(fieldsOf)
      .filter((d) => d.is_file !== false && d.type !== 'dir')
      .map((d) => String(d.obj_name ?? d.name));
  return [];
}

test(
  ...clause(
    'ACCT-9',
    'the custom folder lists a file uploaded through its upload link and forgets it once deleted',
    ev.documented('OA62 file_operations#getCustomUploadLink, #getCustomFiles, #deleteBaseCustomFolderAsset'),
  ),
  async ({ target, state }) => {
    const name = fileName(state, 'custom');
    const l = await target.call({ path: pathOf('customUploadLink'), auth: API, query: { path: '/' } });
    expectStatus(l, 200, 'Get Upload Link (Custom Folder) for /');
    const link = uploadLinkOf(
      expectShape(
        l,
        RESPONSES.customUploadLink!,
        'Get Upload Link (Custom Folder): upload_link, parent_path, relative_path at the top level or inside dirent',
        CUSTOM_LINK_TOP_LEVEL,
      ),
      'relative_path',
    );
    if (!link)
      throw fixtureMissing(
        `Get Upload Link (Custom Folder) answered no upload_link and parent_path: ${l.text.slice(0, 160)}`,
      );
    const up = await upload(target, link, name, randomBytes(64));
    const path = `/${name}`;
    const remove = (expect: number[] = []) =>
      target.call({
        method: 'DELETE',
        path: pathOf('deleteBaseCustomFolderAsset'),
        auth: API,
        query: { path },
        expect,
      });
    let deleted = false;
    try {
      expectStatus(up, 200, `upload ${name} into the custom folder`);
      const list = async () => {
        const r = await target.call({ path: pathOf('customFolderContent'), auth: API, query: { path: '/' } });
        expectStatus(r, 200, 'Get Folder Content (Custom Folder) of /');
        return customFiles(expectShape(r, RESPONSES.customFolderContent!, 'Get Folder Content (Custom Folder)'));
      };
      expect(await list(), `the custom folder's listing after uploading ${name}`).toContain(name);
      const d = await remove();
      expectStatus(d, 200, `Delete a Base Asset (Custom Folder) ${path}`);
      deleted = true;
      expect(await list(), `the custom folder's listing after deleting ${name}`).not.toContain(name);
    } finally {
      if (up.status === 200 && !deleted)
        await restored(`the check's custom-folder file ${path} deleted`, () => remove([404]), goneOrDeleted);
    }
  },
);
