/**
 * Files a check puts into a base and takes out again (ACCT-9): the upload link answers of
 * file_operations.yaml (the custom folder's wrapped in `dirent` by the OpenAPI, unwrapped
 * where the Python client reads them: either is taken), the upload through the file server,
 * and a download by link.
 */
import { randomBytes } from 'node:crypto';
import { fieldsOf } from './api-tokens.js';
import type { Reply, Target } from './target.js';

export interface UploadLink { upload_link: string; parent_path: string; relative_path: string }

/** The link of an upload-link answer; `relative` names the field with the folder (`file_relative_path`, `relative_path`). */
export function uploadLinkOf(body: unknown, relative: string): UploadLink | undefined {
  const outer = fieldsOf(body);
  const l = 'dirent' in outer ? fieldsOf(outer.dirent) : outer;
  if (typeof l.upload_link !== 'string' || typeof l.parent_path !== 'string') return undefined;
  return { upload_link: l.upload_link, parent_path: l.parent_path, relative_path: typeof l[relative] === 'string' ? (l[relative] as string) : '' };
}

/** The download link of an answer, wrapped in `dirent` or not. */
export function downloadLinkOf(body: unknown): string | undefined {
  const outer = fieldsOf(body);
  const l = 'dirent' in outer ? fieldsOf(outer.dirent) : outer;
  return typeof l.download_link === 'string' ? l.download_link : undefined;
}

/** POST the file to the upload link (multipart `file`, `parent_dir`, `relative_path`, `replace=1`), asking for JSON. */
export function upload(target: Target, link: UploadLink, name: string, bytes: Buffer, expect: number[] = []): Promise<Reply> {
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
