/**
 * Files as clients move them (file_operations.yaml, the Python client): an upload-link call
 * with the API token answers a file-server link and the folder to name; the file goes to that
 * link as multipart (`file`, `parent_dir`, `relative_path`) with `?ret-json=1`; a download
 * link fetches it back. The custom folder's link may come wrapped in `dirent` (the OpenAPI)
 * or bare (the Python client): either is taken. Used by ACCT-9, ROUTE-8 and SHAPE-8.
 */
import { randomBytes } from 'node:crypto';
import { endpoint } from '../spec/index.js';
import { fieldsOf } from './api-tokens.js';
import { fixtureMissing } from './outcome.js';
import type { CallOptions, Reply, Target } from './target.js';

interface UploadLinkAnswer {
  upload_link: string;
  parent_path: string;
  relative_path: string;
}

/** The link of an upload-link answer; `relative` names the field with the folder (`file_relative_path`, `relative_path`). */
export function uploadLinkOf(body: unknown, relative: string): UploadLinkAnswer | undefined {
  const outer = fieldsOf(body);
  const l = 'dirent' in outer ? { ...outer, ...fieldsOf(outer.dirent) } : outer;
  if (typeof l.upload_link !== 'string' || typeof l.parent_path !== 'string') return undefined;
  return {
    upload_link: l.upload_link,
    parent_path: l.parent_path,
    relative_path: typeof l[relative] === 'string' ? (l[relative] as string) : '',
  };
}

/** The download link of an answer, wrapped in `dirent` or not. */
export function downloadLinkOf(body: unknown): string | undefined {
  const outer = fieldsOf(body);
  const l = 'dirent' in outer ? fieldsOf(outer.dirent) : outer;
  return typeof l.download_link === 'string' ? l.download_link : undefined;
}

/** POST the file to the upload link (multipart `file`, `parent_dir`, `relative_path`, `replace=1`), asking for JSON. */
export function upload(
  target: Target,
  link: UploadLinkAnswer,
  name: string,
  bytes: Buffer,
  expect: number[] = [],
): Promise<Reply> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
  form.append('parent_dir', link.parent_path);
  form.append('relative_path', link.relative_path);
  form.append('replace', '1');
  const url = new URL(link.upload_link);
  url.searchParams.set('ret-json', '1');
  return target.call({ method: 'POST', path: url.toString(), auth: 'none', multipart: form, expect });
}

/** GET a download link (no credential: the token is in the link). */
export function download(target: Target, link: string, expect: number[] = []): Promise<Reply> {
  return target.call({ path: link, auth: 'none', headers: { accept: '*/*' }, expect });
}

/** Bytes that are surely not UTF-8 text (a server that passes files through a string changes them). */
export function binaryBytes(n = 2048): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28]), randomBytes(n)]);
}

export type LinkKind = 'asset' | 'custom';

export interface UploadLink {
  kind: LinkKind;
  /** The link's path on the target, or the whole URL where it names another host. */
  at: string;
  parentDir: string;
  /** Where the file lands under parent_dir (`files/2024-05`; the custom folder's root). */
  relativePath: string;
}

/** An upload link of base `base` of the first kind in `kinds` the target answers; none is a fixture error. */
export async function uploadLink(target: Target, kinds: readonly LinkKind[], base = 0): Promise<UploadLink> {
  const seen: string[] = [];
  for (const kind of kinds) {
    const id = kind === 'asset' ? 'getUploadLink' : 'customUploadLink';
    const r = await target.call({
      path: endpoint(id).path,
      query: kind === 'custom' ? { path: '/' } : undefined,
      auth: { api: base },
      expect: [400, 403, 404, 405],
    });
    seen.push(`${id} answered ${r.status}`);
    if (r.status !== 200) continue;
    const l = uploadLinkOf(r.json(), kind === 'asset' ? 'file_relative_path' : 'relative_path');
    if (!l) {
      seen.push(`${id}: no upload_link`);
      continue;
    }
    const url = new URL(l.upload_link, target.url + '/');
    const at = url.origin === new URL(target.url).origin ? url.pathname : `${url.origin}${url.pathname}`;
    return { kind, at, parentDir: l.parent_path, relativePath: l.relative_path || '/' };
  }
  throw fixtureMissing(`no upload link (${seen.join(', ')})`);
}

/** The upload of `bytes` as `name` to `link` (no credential: the link is one). */
export function uploadCall(link: UploadLink, name: string, bytes: Buffer): CallOptions {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/plain' }), name);
  form.append('parent_dir', link.parentDir);
  form.append('relative_path', link.relativePath);
  return { method: 'POST', path: link.at, query: { 'ret-json': 1 }, multipart: form, auth: 'none' };
}

/** The path later calls name an uploaded file by: `/files/2024-05/a.txt`, or `/a.txt` in the custom folder. */
export function uploadedPath(link: UploadLink, name: string): string {
  if (link.kind === 'custom') return `/${name}`;
  return `/${link.relativePath.replace(/^\/+|\/+$/g, '')}/${name}`;
}
