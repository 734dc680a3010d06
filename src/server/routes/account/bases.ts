/**
 * Creating, copying and deleting bases (ACCT-8; user_account_operations.yaml), as the official
 * clients do: Create Base takes `workspace_id` (the OpenAPI) or `owner` (the Python client: a
 * user, or `<group_id>@seafile_group`); the base to copy or delete is named by workspace and
 * name. A created base is empty, as the seeded ones are.
 */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { badRequest, forbidden, HttpError, notFound } from '../../errors.js';
import { route } from '../../pipeline/hooks.js';
import { workspaceById, workspacesOf, type Workspace } from '../../store/account/orgs.js';
import { baseEntry } from '../../store/bases/entries.js';
import { copyBase, createBase, deleteBase } from '../../store/bases/lifecycle.js';
import type { User } from '../../store/store.js';
import { bool, formOf, int, str, userOf } from './common.js';
import { logOperation } from './services.js';

/** A workspace the user works in (owned, a group's they belong to, or their team's as its admin). */
function usableWorkspace(ctx: ServerContext, user: User, id: number): Workspace {
  const ws = workspaceById(ctx.db, id);
  if (!ws) throw notFound(`Workspace ${id} not found.`, 'web');
  if (!workspacesOf(ctx.db, user).some((w) => w.id === id)) throw forbidden();
  return ws;
}

/** The workspace `owner` names: the user's own (made on first use, as the real service does) or a group's. */
function ownersWorkspace(ctx: ServerContext, user: User, owner: string): Workspace {
  const group = /^(\d+)@seafile_group$/.exec(owner);
  if (!group) {
    if (owner !== user.id && owner !== user.email && owner !== user.contact_email) throw forbidden();
    const own = ctx.db.prepare('SELECT id FROM workspaces WHERE owner = ? AND group_id IS NULL').get(user.id) as
      { id: number } | undefined;
    const id =
      own?.id ??
      Number(
        ctx.db
          .prepare("INSERT INTO workspaces (org_id, owner, group_id, name) VALUES (?, ?, NULL, 'personal')")
          .run(user.org_id, user.id).lastInsertRowid,
      );
    return workspaceById(ctx.db, id)!;
  }
  const groupId = Number(group[1]);
  const ws = ctx.db.prepare('SELECT id FROM workspaces WHERE group_id = ?').get(groupId) as { id: number } | undefined;
  if (!ws) throw notFound(`Group ${groupId} not found.`, 'web');
  return usableWorkspace(ctx, user, ws.id);
}

function baseName(v: unknown, field = 'name'): string {
  const name = str(v, field, { required: true })!;
  if (/[/\\\0]/.test(name)) throw badRequest(`${field} invalid: a base name has no slash.`, 'web');
  return name;
}

const styleField = (v: unknown, name: string) => str(v, name, { max: 64 }) ?? null;

/** `name`, or the first of `name (1)`, `name (2)`… not taken in the workspace (a copy beside its original). */
function freeBaseName(ctx: ServerContext, workspaceId: number, name: string): string {
  if (!ctx.store.baseByName(workspaceId, name)) return name;
  for (let i = 1; ; i++) if (!ctx.store.baseByName(workspaceId, `${name} (${i})`)) return `${name} (${i})`;
}

export function registerBases(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('createBase'), (req, reply) => {
    const user = userOf(req);
    const f = formOf(req).fields;
    const name = baseName(f.name);
    const style = { icon: styleField(f.icon, 'icon'), color: styleField(f.color, 'color'), text_color: null };
    const wsId = int(f.workspace_id, 'workspace_id', { min: 1 });
    const owner = str(f.owner, 'owner');
    // One transaction: a personal workspace made on the way is not kept when the base is refused.
    const { ws, base } = ctx.db.transaction(() => {
      const ws = wsId !== undefined ? usableWorkspace(ctx, user, wsId) : ownersWorkspace(ctx, user, owner ?? user.id);
      if (ctx.store.baseByName(ws.id, name)) throw new HttpError(409, `Base ${name} already exists.`);
      return { ws, base: createBase(ctx.store, ws.id, name, user.id, style) };
    })();
    logOperation(ctx, user, ws.org_id, 'base', 'base_create', { base_name: name });
    return reply.code(201).send({ table: { ...baseEntry(ctx.db, base.uuid), is_encrypted: false, in_storage: true } });
  });

  route(app, ctx, endpoint('copyBaseFromWorkspace'), (req) => {
    const user = userOf(req);
    const f = formOf(req).fields;
    const src = usableWorkspace(ctx, user, int(f.src_workspace_id, 'src_workspace_id', { required: true, min: 1 })!);
    const name = baseName(f.name);
    const dst = usableWorkspace(ctx, user, int(f.dst_workspace_id, 'dst_workspace_id', { required: true, min: 1 })!);
    bool(f.is_copy_dataset_syncs, 'is_copy_dataset_syncs'); // checked; the reference server has no common datasets to sync
    const base = ctx.store.baseByName(src.id, name);
    if (!base) throw notFound(`dtable ${name} not found.`, 'web');
    const copy = copyBase(
      ctx.store,
      base,
      dst.id,
      freeBaseName(ctx, dst.id, name),
      user.id,
      !ctx.faults.has('copy-base-without-tables'),
    );
    logOperation(ctx, user, dst.org_id, 'base', 'base_copy', { base_name: copy.name, from: name });
    return { dtable: baseEntry(ctx.db, copy.uuid) };
  });

  route(app, ctx, endpoint('deleteBase'), (req) => {
    const user = userOf(req);
    const ws = usableWorkspace(
      ctx,
      user,
      int((req.params as { workspace_id: string }).workspace_id, 'workspace_id', { required: true, min: 1 })!,
    );
    const name = baseName(formOf(req).fields.name);
    const base = ctx.store.baseByName(ws.id, name);
    if (!base) throw notFound(`dtable ${name} not found.`, 'web');
    if (ctx.faults.has('deleted-base-still-open')) return { success: true }; // mutant: answered, nothing deleted
    deleteBase(ctx.store, base);
    ctx.responseCache.delete(base.uuid);
    logOperation(ctx, user, ws.org_id, 'base', 'base_delete', { base_name: name });
    return { success: true };
  });
}
