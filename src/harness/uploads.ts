/**
 * Uploads as clients make them (file_operations.yaml, the Python client): an upload-link call
 * with the API token answers a file-server link and the folder to name, and the file goes to
 * that link as multipart (`file`, `parent_dir`, `relative_path`) with `?ret-json=1`. The
 * custom folder's link may come wrapped in `dirent` (the OpenAPI) or bare (the Python client).
 */
import { endpoint } from '../spec/index.js';
import { fixtureMissing } from './outcome.js';
import type { CallOptions, Target } from './target.js';

export type LinkKind = 'asset' | 'custom';

export interface UploadLink {
  kind: LinkKind;
  /** The link's path on the target, or the whole URL where it names another host. */
  at: string;
  parentDir: string;
  /** Where the file lands under parent_dir (`files/2024-05`; the custom folder's root). */
  relativePath: string;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** An upload link of base `base` of the first kind in `kinds` the target answers; none is a fixture error. */
export async function uploadLink(target: Target, kinds: readonly LinkKind[], base = 0): Promise<UploadLink> {
  const seen: string[] = [];
  for (const kind of kinds) {
    const id = kind === 'asset' ? 'getUploadLink' : 'customUploadLink';
    const r = await target.call({ path: endpoint(id).path, query: kind === 'custom' ? { path: '/' } : undefined, auth: { api: base }, expect: [400, 403, 404, 405] });
    seen.push(`${id} answered ${r.status}`);
    if (r.status !== 200) continue;
    const body = obj(r.json());
    const d = { ...body, ...obj(body.dirent) };
    if (typeof d.upload_link !== 'string') { seen.push(`${id}: no upload_link`); continue; }
    const url = new URL(d.upload_link, target.url + '/');
    const at = url.origin === new URL(target.url).origin ? url.pathname : `${url.origin}${url.pathname}`;
    const rel = kind === 'asset' ? d.file_relative_path : d.relative_path;
    return { kind, at, parentDir: typeof d.parent_path === 'string' ? d.parent_path : '/', relativePath: typeof rel === 'string' ? rel : '/' };
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
