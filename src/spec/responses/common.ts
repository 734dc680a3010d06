/**
 * Pieces the response schemas share. Lenient on purpose (a future SHAPE-8 check runs them
 * against real servers): objects allow extra fields, ids are integer-or-string where the
 * sources disagree, times are any string (servers write ISO with and without offsets and
 * fractions). A field is required when the OpenAPI's schema or example shows it, optional
 * when the examples show it only sometimes, or it depends on a feature or a release.
 */
import { z } from 'zod';

/** A numeric id some answers write as a string (listWorkspaces: `""` for starred/shared). */
export const anyId = z.union([z.number().int(), z.string()]);
export const time = z.string();
/** A user id, `<32 hex>@auth.local` on the real service (not checked: other servers differ). */
export const user = z.string();
/** Integer flags the documentation writes as 0/1 and other sources as booleans. */
export const flag = z.union([z.number().int(), z.boolean()]);

export const success = z.looseObject({ success: z.boolean() });

export const row = z.looseObject({ _id: z.string() });
export const linkValue = z.looseObject({ row_id: z.string(), display_value: z.unknown() });

export const column = z.looseObject({
  key: z.string(),
  name: z.string(),
  type: z.string(),
  width: z.number(),
  editable: z.boolean(),
  resizable: z.boolean(),
  draggable: z.boolean().optional(),
  data: z.unknown().optional(),
  permission_type: z.string().optional(),
  permitted_users: z.array(z.string()).optional(),
});

export const view = z.looseObject({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  is_locked: z.boolean(),
  filter_conjunction: z.string(),
  filters: z.array(z.unknown()),
  sorts: z.array(z.unknown()),
  groupbys: z.array(z.unknown()),
  hidden_columns: z.array(z.unknown()),
});

/** A table as metadata, create and duplicate answer it; `rows`/`id_row_map` come with the latter two. */
export const table = z.looseObject({
  _id: z.string(),
  name: z.string(),
  columns: z.array(column),
  views: z.array(view),
  rows: z.array(z.unknown()).optional(),
  id_row_map: z.record(z.string(), z.unknown()).optional(),
});

/** A row comment. `resolved`: 0/1 in the OpenAPI, true/false in the scripting manual. */
export const comment = z.looseObject({
  id: anyId,
  author: user,
  comment: z.string(),
  dtable_uuid: z.string(),
  row_id: z.string(),
  created_at: time,
  updated_at: time,
  resolved: flag,
});

/** A base as the account listings show it (workspaces, search, create, copy). */
export const baseEntry = z.looseObject({
  id: z.number().int(),
  workspace_id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  created_at: time,
  updated_at: time,
  creator: z.string().optional(),
  modifier: z.string().optional(),
  color: z.string().nullable(),
  text_color: z.string().nullable(),
  icon: z.string().nullable(),
  starred: z.boolean().optional(),
});
