/**
 * The base's custom folder (API-token auth; ACCT-9): folder content, file metadata, upload
 * and download links, deleting a file. Answers as file_operations.yaml shows them: content
 * as `{dir, file}`, the links in `dirent` — and at the top level too, where the official
 * Python client reads them (BOTH_READERS). The links are the file server's (files.ts),
 * limited to the folder asked for.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { cleanPath, deleteAsset, getAsset, listDir } from '../../store/account/assets.js';
import { grantLink } from '../../store/account/file-links.js';
import { str } from './common.js';
import { rootOf } from '../../public-url.js';
import { apiTokenOf, filePath, writerOf } from './files.js';

const ROOT = 'custom';

/** `custom/<path>` from the client's path inside the custom folder ('/' when not given, unless required). */
function customPath(raw: unknown, required = false): string {
  const p = cleanPath(str(raw, 'path', { required }) ?? '/');
  if (p === undefined) throw badRequest('path invalid.', 'web');
  return p ? `${ROOT}/${p}` : ROOT;
}

const inside = (path: string) => path.slice(ROOT.length) || '/';

export function registerCustomFolders(app: FastifyInstance, ctx: ServerContext): void {
  /**
   * A link answer both readers can read (BOTH_READERS, src/spec/responses/files.ts): the
   * fields at the top level, as the Python client reads them, and inside `dirent`, as the API
   * description's example shows them.
   */
  const bothReaders = (top: object, dirent: object) => ({ ...top, dirent });

  route(app, ctx, endpoint('customFolderContent'), (req) => {
    const t = apiTokenOf(req);
    const dir = customPath((req.query as Record<string, unknown>).path);
    const list = listDir(ctx.db, t.base_uuid, dir);
    if (!list && dir !== ROOT) throw notFound(`Folder ${inside(dir)} not found.`, 'web');
    const names = (files: boolean) =>
      (list ?? []).filter((d) => d.is_file === files).map((d) => ({ name: d.obj_name }));
    return { dir: names(false), file: names(true) };
  });

  route(app, ctx, endpoint('customFileMetadata'), (req) => {
    const t = apiTokenOf(req);
    const q = req.query as Record<string, unknown>;
    const dir = customPath(q.path, true);
    const name = q.name === undefined ? undefined : cleanPath(str(q.name, 'name', { required: true })!);
    if (name === '' || name?.includes('/')) throw badRequest('name invalid.', 'web');
    if (!name && dir === ROOT)
      throw badRequest("name invalid: the path names the folder; give the file's name.", 'web');
    const path = name ? `${dir}/${name}` : dir;
    const a = getAsset(ctx.db, t.base_uuid, path);
    if (!a) throw notFound(`File ${inside(path)} not found.`, 'web');
    return {
      dirent: {
        is_file: true,
        obj_name: path.split('/').pop()!,
        file_size: a.data.length,
        last_update: a.mtime,
        uuid: a.uuid,
      },
    };
  });

  route(app, ctx, endpoint('customUploadLink'), (req) => {
    const t = writerOf(req);
    const base = ctx.store.base(t.base_uuid);
    if (!base) throw notFound('dtable not found.', 'web');
    const dir = customPath((req.query as Record<string, unknown>).path);
    const token = grantLink(ctx.db, base.uuid, dir, 'upload', ctx.now());
    const link = {
      upload_link: `${rootOf(ctx, req)}/seafhttp/upload-api/${token}`,
      parent_path: `/asset/${base.uuid}/${ROOT}`,
      relative_path: inside(dir),
    };
    return bothReaders(link, { ...link, workspace_id: base.workspaceId });
  });

  route(app, ctx, endpoint('customDownloadLink'), (req) => {
    const t = apiTokenOf(req);
    const path = filePath((req.query as Record<string, unknown>).path, ROOT);
    if (!getAsset(ctx.db, t.base_uuid, path)) throw notFound(`File ${inside(path)} not found.`, 'web');
    const token = grantLink(ctx.db, t.base_uuid, path, 'download', ctx.now());
    const link = {
      download_link: `${rootOf(ctx, req)}/seafhttp/files/${token}/${encodeURIComponent(path.split('/').pop()!)}`,
    };
    return bothReaders(link, link);
  });

  route(app, ctx, endpoint('deleteBaseCustomFolderAsset'), (req) => {
    const t = writerOf(req);
    const path = filePath((req.query as Record<string, unknown>).path, ROOT);
    if (!deleteAsset(ctx.db, t.base_uuid, path)) throw notFound(`File ${inside(path)} not found.`, 'web');
    return { success: true };
  });
}
