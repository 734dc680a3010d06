/**
 * Files and images of a base (ACCT-9; file_operations.yaml), API-token auth: an upload link
 * for the base's asset folder, a download link per file, deleting a file; and the file server
 * behind them — the upload (`/seafhttp/upload-api/{token}`, the token in the link is the
 * credential) and the download (`/seafhttp/files/{token}/{name}`), outside the API's rate
 * limits as on the real service. The custom folder's links (custom-folders.ts) use the same
 * file server.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden, HttpError, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { cleanPath, deleteAsset, freeName, getAsset, putAsset } from '../../store/account/assets.js';
import { grantedLink, grantLink, type FileLink } from '../../store/account/file-links.js';
import type { ApiToken } from '../../store/store.js';
import { bool, formOf, str } from './common.js';
import { rootOf } from '../../public-url.js';

export const apiTokenOf = (req: FastifyRequest): ApiToken => {
  if (req.principal?.kind !== 'api') throw forbidden();
  return req.principal.token;
};

/** The API token, if it may write (a read-only token gets no upload link and deletes nothing). */
export function writerOf(req: FastifyRequest): ApiToken {
  const t = apiTokenOf(req);
  if (t.permission !== 'rw') throw forbidden("You don't have permission to perform this operation on this base.");
  return t;
}

/** A file's path in the asset folder from a client's `path` (`/files/2021-03/a.png`): never the folder itself. */
export function filePath(raw: unknown, prefix = ''): string {
  const p = cleanPath(str(raw, 'path', { required: true, max: 1024 })!);
  if (p === undefined) throw badRequest('path invalid.', 'web');
  if (!p) throw badRequest('path invalid: it names a folder, not a file.', 'web');
  return prefix ? `${prefix}/${p}` : p;
}

/** The folder an upload goes to: `parent_dir` (`/asset/<uuid>…`) and `relative_path`, inside the link's folder. */
function uploadDir(link: FileLink, parentDir: unknown, relative: unknown): string {
  const parent = cleanPath(str(parentDir, 'parent_dir', { required: true, max: 1024 })!);
  const root = `asset/${link.base_uuid}`;
  if (parent === undefined || (parent !== root && !parent.startsWith(`${root}/`)))
    throw badRequest('parent_dir invalid.', 'web');
  const rel = cleanPath(typeof relative === 'string' ? relative : '');
  if (rel === undefined) throw badRequest('relative_path invalid.', 'web');
  const dir = [parent.slice(root.length + 1), rel].filter(Boolean).join('/');
  if (link.path && dir !== link.path && !dir.startsWith(`${link.path}/`))
    throw badRequest('relative_path invalid: outside the folder of the upload link.', 'web');
  return dir;
}

export function registerFiles(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('getUploadLink'), (req) => {
    const t = writerOf(req);
    const base = ctx.store.base(t.base_uuid);
    if (!base) throw notFound('dtable not found.', 'web');
    const month = new Date(ctx.now()).toISOString().slice(0, 7);
    return {
      upload_link: `${rootOf(ctx, req)}/seafhttp/upload-api/${grantLink(ctx.db, base.uuid, '', 'upload', ctx.now())}`,
      workspace_id: base.workspaceId,
      parent_path: `/asset/${base.uuid}`,
      img_relative_path: `images/${month}`,
      file_relative_path: `files/${month}`,
    };
  });

  route(app, ctx, endpoint('getFileDownloadLink'), (req) => {
    const t = apiTokenOf(req);
    const path = filePath((req.query as Record<string, unknown>).path);
    if (!getAsset(ctx.db, t.base_uuid, path)) throw notFound(`path /${path} not found.`, 'web');
    const token = grantLink(ctx.db, t.base_uuid, path, 'download', ctx.now());
    return {
      download_link: `${rootOf(ctx, req)}/seafhttp/files/${token}/${encodeURIComponent(path.split('/').pop()!)}`,
    };
  });

  route(app, ctx, endpoint('deleteBaseAsset'), (req) => {
    const t = writerOf(req);
    const path = filePath((req.query as Record<string, unknown>).path);
    if (!getAsset(ctx.db, t.base_uuid, path)) throw notFound('File not found.', 'web');
    if (!ctx.faults.has('asset-delete-ignored')) deleteAsset(ctx.db, t.base_uuid, path); // mutant: answered, kept
    return { success: true };
  });

  // The file server. Multipart `file`, `parent_dir`, `relative_path`, `replace` (1: overwrite;
  // else a taken name becomes `name (1).ext`). Answered as JSON (`?ret-json=1`) always.
  route(app, ctx, endpoint('uploadFile'), (req) => {
    const link = grantedLink(ctx.db, (req.params as { upload_link: string }).upload_link, 'upload', ctx.now());
    if (!link) throw new HttpError(403, 'Token invalid or expired.', 'web');
    const { fields, files } = formOf(req);
    const file = files.file;
    if (!file) throw badRequest('file invalid.', 'web');
    const dir = uploadDir(link, fields.parent_dir, fields.relative_path);
    const replace = bool(fields.replace, 'replace') ?? false;
    const given = cleanPath(file.filename);
    if (!given || given.includes('/')) throw badRequest('file name invalid.', 'web');
    const name = replace ? given : freeName(ctx.db, link.base_uuid, dir, given);
    const a = putAsset(ctx.db, link.base_uuid, dir ? `${dir}/${name}` : name, file.data, ctx.now());
    return [{ name, id: createHash('sha1').update(a.data).digest('hex'), size: a.data.length }];
  });

  app.get('/seafhttp/files/:token/:name', (req, reply) => {
    const link = grantedLink(ctx.db, (req.params as { token: string }).token, 'download', ctx.now());
    if (!link) throw new HttpError(403, 'Token invalid or expired.', 'web');
    const a = getAsset(ctx.db, link.base_uuid, link.path);
    if (!a) throw notFound('File not found.', 'web');
    reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${encodeURIComponent(link.path.split('/').pop()!)}"`);
    // Mutant download-as-text: the bytes sent as a decoded string, so anything not UTF-8 changes.
    return reply.send(ctx.faults.has('download-as-text') ? a.data.toString('utf8') : a.data);
  });
}
