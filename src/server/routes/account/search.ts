/** Items search (bases and apps of the user, 4.2) and the plugin installation counts (system admin). */
import type { FastifyInstance } from 'fastify';
import { endpoint } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { route } from '../../pipeline/hooks.js';
import { groupName, workspacesOf } from '../../store/account/orgs.js';
import { oneOf, str, userOf } from './common.js';
import { prep } from '../../store/account/prepared.js';
import { baseEntry } from '../../store/bases/entries.js';

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function registerSearch(app: FastifyInstance, ctx: ServerContext): void {
  route(app, ctx, endpoint('itemsSearch'), (req) => {
    const q = req.query as Record<string, unknown>;
    const text = str(q.query_str, 'query_str', { required: true })!;
    const type = oneOf(q.query_type, 'query_type', ['base', 'app'] as const);
    const spaces = workspacesOf(ctx.db, userOf(req));
    const ids = JSON.stringify(spaces.map((w) => w.id));
    const group = new Map(spaces.map((w) => [w.id, groupName(ctx.db, w.group_id)]));
    const results: Record<string, unknown>[] = [];
    if (type !== 'app') {
      const found = prep(
        ctx.db,
        `SELECT uuid FROM bases
          WHERE workspace_id IN (SELECT value FROM json_each(?)) AND name LIKE ? ESCAPE '\\' ORDER BY name`,
      ).all(ids, like(text)) as { uuid: string }[];
      // Each found base as the account listings show it (id, style, creator).
      for (const { uuid } of found) {
        const b = baseEntry(ctx.db, uuid);
        if (b) results.push({ ...b, group_name: group.get(b.workspace_id) ?? '', type: 'base' });
      }
    }
    if (type !== 'base') {
      const apps = prep(
        ctx.db,
        `SELECT a.id, a.token, a.app_name, a.created_at, b.workspace_id FROM apps a JOIN bases b ON b.uuid = a.dtable_uuid
          WHERE b.workspace_id IN (SELECT value FROM json_each(?)) AND a.app_name LIKE ? ESCAPE '\\' ORDER BY a.app_name`,
      ).all(ids, like(text)) as {
        id: number;
        token: string;
        app_name: string;
        created_at: string;
        workspace_id: number;
      }[];
      for (const a of apps)
        results.push({
          id: a.id,
          workspace_id: a.workspace_id,
          uuid: a.token,
          name: a.app_name,
          created_at: a.created_at,
          updated_at: a.created_at,
          color: null,
          text_color: null,
          icon: null,
          group_name: group.get(a.workspace_id) ?? '',
          type: 'app',
          starred: false,
        });
    }
    return { results };
  });

  route(app, ctx, endpoint('pluginsInstallCount'), () => {
    const list = prep(ctx.db, 'SELECT id, plugin_name, count, updated_at, created_at FROM plugins ORDER BY id').all();
    return { plugins_install_count_list: list, count: list.length };
  });
}
