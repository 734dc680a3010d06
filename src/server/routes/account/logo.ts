/**
 * Team logo (ACCT-5): POST a multipart `file` (jpg, jpeg, gif, png), GET it back, DELETE it.
 * GET answers `{"logo_path"}` as the real service does; asked with `Accept: image/*` it
 * serves the stored bytes, so a client can check that what it uploaded is what is kept.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { orgById } from '../../store/account/orgs.js';
import { formOf } from './common.js';
import { prep } from '../../store/account/prepared.js';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', png: 'image/png' };
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const wantsImage = (accept: string | undefined) =>
  !!accept && /image\//.test(accept) && !/application\/json/.test(accept);

export function registerLogo(app: FastifyInstance, ctx: ServerContext): void {
  const orgOfReq = (params: unknown) => Number((params as { org_id: string }).org_id);

  route(app, ctx, endpoint('setTeamLogo'), (req) => {
    const orgId = orgOfReq(req.params);
    const file = formOf(req).files.file;
    if (!file || !file.data.length)
      throw badRequest('file invalid: a multipart field `file` with an image is expected.', 'web');
    const ext = /\.([A-Za-z]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
    const type = TYPES[ext];
    if (!type) throw badRequest(`file invalid: ${ext || 'no'} extension; jpg, jpeg, gif or png is expected.`, 'web');
    if (file.data.length > MAX_LOGO_BYTES) throw badRequest('file invalid: larger than 2 MB.', 'web');
    const path = `avatars/org-logo/${orgId}/${randomUUID()}.${ext}`;
    prep(ctx.db, 'UPDATE orgs SET logo = ?, logo_type = ?, logo_path = ? WHERE id = ?').run(
      file.data,
      type,
      path,
      orgId,
    );
    return { logo_path: path };
  });

  route(app, ctx, endpoint('getTeamLogo'), (req, reply) => {
    const org = orgById(ctx.db, orgOfReq(req.params));
    if (wantsImage(req.headers.accept)) {
      if (!org?.logo) throw notFound('The team has no logo.', 'web');
      return reply.type(org.logo_type ?? 'application/octet-stream').send(org.logo);
    }
    return { logo_path: org?.logo_path ?? null };
  });

  route(app, ctx, endpoint('deleteTeamLogo'), (req) => {
    if (!ctx.faults.has('logo-not-deleted'))
      prep(ctx.db, 'UPDATE orgs SET logo = NULL, logo_type = NULL, logo_path = NULL WHERE id = ?').run(
        orgOfReq(req.params),
      );
    return { success: true };
  });
}
