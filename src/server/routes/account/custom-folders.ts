/**
 * The base's custom folder (API-token auth): folder content, file metadata, upload link and
 * download link. The links are real: short-lived tokens for `/seafhttp/upload-api/{token}`
 * and `/seafhttp/files/{token}/{name}` (the file server's paths, outside the API and its
 * rate limits, as on the real service).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden, HttpError, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { cleanPath, getAsset, listDir, putAsset } from '../../store/account/assets.js';
import type { ApiToken } from '../../store/store.js';
import { formOf, rootOf, str } from './common.js';

const LINK_MS = 3600_000;
const ROOT = 'custom';

interface Grant { baseUuid: string; path: string; kind: 'upload' | 'download'; expires: number }

const apiTokenOf = (req: FastifyRequest): ApiToken => {
  if (req.principal?.kind !== 'api') throw forbidden();
  return req.principal.token;
};

/** `custom/<path>` from the client's path inside the custom folder ('/' when not given, unless required). */
function customPath(raw: unknown, required = false): string {
  const p = cleanPath(str(raw, 'path', { required }) ?? '/');
  if (p === undefined) throw badRequest('path invalid.', 'web');
  return p ? `${ROOT}/${p}` : ROOT;
}

export function registerCustomFolders(app: FastifyInstance, ctx: ServerContext): void {
  const grants = new Map<string, Grant>();
  const grant = (g: Omit<Grant, 'expires'>) => {
    const now = ctx.now();
    for (const [k, v] of grants) if (v.expires <= now) grants.delete(k);
    const token = randomBytes(16).toString('hex');
    grants.set(token, { ...g, expires: now + LINK_MS });
    return token;
  };
  const granted = (token: string, kind: Grant['kind']) => {
    const g = grants.get(token);
    if (!g || g.kind !== kind || g.expires <= ctx.now()) throw new HttpError(403, 'Token invalid or expired.', 'web');
    return g;
  };

  route(app, ctx, endpoint('customFolderContent'), (req) => {
    const t = apiTokenOf(req);
    const dir = customPath((req.query as Record<string, unknown>).path);
    const list = listDir(ctx.db, t.base_uuid, dir);
    if (!list && dir !== ROOT) throw notFound(`Folder ${dir.slice(ROOT.length) || '/'} not found.`, 'web');
    return { dirent_list: list ?? [] };
  });

  route(app, ctx, endpoint('customFileMetadata'), (req) => {
    const t = apiTokenOf(req);
    const q = req.query as Record<string, unknown>;
    const dir = customPath(q.path, true);
    const name = q.name === undefined ? undefined : cleanPath(str(q.name, 'name', { required: true })!);
    if (name === '' || name?.includes('/')) throw badRequest('name invalid.', 'web');
    if (!name && dir === ROOT) throw badRequest('name invalid: the path names the folder; give the file\'s name.', 'web');
    const path = name ? `${dir}/${name}` : dir;
    const a = getAsset(ctx.db, t.base_uuid, path);
    if (!a) throw notFound(`File ${path.slice(ROOT.length)} not found.`, 'web');
    return { dirent: { is_file: true, obj_name: path.split('/').pop()!, file_size: a.data.length, last_update: a.mtime, uuid: a.uuid } };
  });

  route(app, ctx, endpoint('customUploadLink'), (req) => {
    const t = apiTokenOf(req);
    if (t.permission !== 'rw') throw forbidden("You don't have permission to perform this operation on this base.");
    const dir = customPath((req.query as Record<string, unknown>).path);
    const token = grant({ baseUuid: t.base_uuid, path: dir, kind: 'upload' });
    return { upload_link: `${rootOf(req)}/seafhttp/upload-api/${token}`, parent_path: `/asset/${t.base_uuid}`, relative_path: dir };
  });

  route(app, ctx, endpoint('customDownloadLink'), (req) => {
    const t = apiTokenOf(req);
    const path = customPath((req.query as Record<string, unknown>).path, true);
    if (path === ROOT) throw badRequest('path invalid: the custom folder itself is not a file.', 'web');
    if (!getAsset(ctx.db, t.base_uuid, path)) throw notFound(`File ${path.slice(ROOT.length)} not found.`, 'web');
    const token = grant({ baseUuid: t.base_uuid, path, kind: 'download' });
    return { download_link: `${rootOf(req)}/seafhttp/files/${token}/${encodeURIComponent(path.split('/').pop()!)}` };
  });

  // The file server: multipart `file`, optional `relative_path` (must stay in the granted folder).
  app.post('/seafhttp/upload-api/:token', (req) => {
    const g = granted((req.params as { token: string }).token, 'upload');
    const { fields, files } = formOf(req);
    const file = files.file;
    if (!file) throw badRequest('file invalid.', 'web');
    const rel = cleanPath(typeof fields.relative_path === 'string' ? fields.relative_path : g.path);
    const name = cleanPath(file.filename);
    if (rel === undefined || !name || name.includes('/') || (rel !== g.path && !rel.startsWith(`${g.path}/`))) throw badRequest('relative_path invalid.', 'web');
    const a = putAsset(ctx.db, g.baseUuid, `${rel}/${name}`, file.data, ctx.now());
    return [{ name, size: a.data.length, id: a.uuid }];
  });

  app.get('/seafhttp/files/:token/:name', (req, reply) => {
    const g = granted((req.params as { token: string }).token, 'download');
    const a = getAsset(ctx.db, g.baseUuid, g.path);
    if (!a) throw notFound('File not found.', 'web');
    return reply.type('application/octet-stream').header('content-disposition', `attachment; filename="${encodeURIComponent(g.path.split('/').pop()!)}"`).send(a.data);
  });
}
