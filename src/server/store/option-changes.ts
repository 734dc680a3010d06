/**
 * Changing a select column's options (column-options/) and its cascade (column-cascade-settings/).
 * Cells hold option names here, so renaming an option renames it in every cell and deleting
 * one removes it from the cells that hold it (the OpenAPI: "These deleted options will be
 * removed from the entries containing them"). Everything is checked before anything is
 * written; one transaction, the metadata restored if it fails.
 */
import { badRequest } from '../errors.js';
import { qid } from './db.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { findOption, optionsOf, parseOptions, SELECT_TYPES, type SelectOption } from './options.js';
import { saveMeta, withMetaRollback, type SchemaContext } from './schema.js';

function selectColumn(col: ColumnMeta, field = 'column'): void {
  if (!SELECT_TYPES.has(col.type))
    throw badRequest(`${field} ${col.name} is a ${col.type} column, not a single or multiple select`);
}

/** Run `fn` on the column's options and cells in one transaction, then save. */
function change<T>(ctx: SchemaContext, base: Base, fn: () => T): T {
  return withMetaRollback(base, () =>
    base.db.transaction(() => {
      const r = fn();
      saveMeta(ctx.db, base);
      return r;
    })(),
  );
}

export function addOptions(ctx: SchemaContext, base: Base, col: ColumnMeta, raw: unknown): void {
  selectColumn(col);
  const added = parseOptions(raw, optionsOf(col), 'options', !ctx.faults.has('select-options-without-ids')); // mutant (BASE-3): options without ids
  change(ctx, base, () => optionsOf(col).push(...added));
}

/** Cells naming `from` name `to` instead (`to` null: the option is removed from them). */
function renameInCells(base: Base, table: TableMeta, col: ColumnMeta, from: string, to: string | null): void {
  const c = qid(physColumn(col.key));
  const t = qid(table.phys);
  if (col.type === 'single-select') {
    base.db.prepare(`UPDATE ${t} SET ${c} = ? WHERE ${c} = ?`).run(to, from);
    return;
  }
  const kept =
    to === null
      ? `(SELECT json_group_array(value) FROM json_each(${c}) WHERE value != ?)`
      : `(SELECT json_group_array(CASE WHEN value = ? THEN ? ELSE value END) FROM json_each(${c}))`;
  base.db
    .prepare(
      `UPDATE ${t} SET ${c} = ${kept} WHERE json_valid(${c}) AND EXISTS (SELECT 1 FROM json_each(${c}) WHERE value = ?)`,
    )
    .run(...(to === null ? [from] : [from, to]), from);
  if (to === null) base.db.exec(`UPDATE ${t} SET ${c} = NULL WHERE ${c} = '[]'`);
}

/** Options named by `id` (or, without one, by name) take the given name and colours. */
export function updateOptions(
  ctx: SchemaContext,
  base: Base,
  table: TableMeta,
  col: ColumnMeta,
  raw: unknown,
): SelectOption[] {
  selectColumn(col);
  if (!Array.isArray(raw) || raw.length === 0)
    throw badRequest('options must be a non-empty array of {id, name, color, textColor}');
  const plans = raw.map((o, i) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw badRequest(`options[${i}] must be an object`);
    const u = o as Record<string, unknown>;
    const option = findOption(col, u.id ?? u.name);
    if (!option) throw badRequest(`options[${i}]: option ${JSON.stringify(u.id ?? u.name ?? null)} not found`);
    if (u.name !== undefined && (typeof u.name !== 'string' || u.name.trim() === ''))
      throw badRequest(`options[${i}]: name must be a non-empty string`);
    for (const k of ['color', 'textColor'] as const)
      if (u[k] !== undefined && typeof u[k] !== 'string') throw badRequest(`options[${i}]: ${k} must be a string`);
    return { option, u };
  });
  const names = new Map(optionsOf(col).map((o) => [o.id, o.name]));
  for (const { option, u } of plans) if (typeof u.name === 'string') names.set(option.id, u.name);
  if (new Set(names.values()).size !== names.size) throw badRequest('options: two options would have the same name');
  return change(ctx, base, () =>
    plans.map(({ option, u }) => {
      if (typeof u.name === 'string' && u.name !== option.name) {
        renameInCells(base, table, col, option.name, u.name);
        option.name = u.name;
      }
      if (typeof u.color === 'string') option.color = u.color;
      if (typeof u.textColor === 'string') option.textColor = u.textColor;
      return option;
    }),
  );
}

export function deleteOptions(ctx: SchemaContext, base: Base, table: TableMeta, col: ColumnMeta, raw: unknown): void {
  selectColumn(col);
  if (!Array.isArray(raw) || raw.length === 0)
    throw badRequest('option_names must be a non-empty array of option names');
  const doomed = raw.map((ref, i) => {
    const o = findOption(col, ref);
    if (!o) throw badRequest(`option_names[${i}]: option ${JSON.stringify(ref)} not found`);
    return o;
  });
  change(ctx, base, () => {
    for (const o of doomed) renameInCells(base, table, col, o.name, null);
    col.data!.options = optionsOf(col).filter((o) => !doomed.includes(o));
    // A cascade must not name options that are gone.
    const ids = new Set(doomed.map((o) => o.id));
    for (const c of table.columns) {
      const s = c.data?.cascade_settings as Record<string, string[]> | undefined;
      if (!s) continue;
      for (const k of Object.keys(s))
        if (ids.has(k)) delete s[k];
        else s[k] = s[k]!.filter((x) => !ids.has(x));
    }
  });
}

/**
 * The child column shows, for each option of the parent, only the options listed for it.
 * Stored in the child's column_data as the real service keeps it: `cascade_column_key` and
 * `cascade_settings` from parent option id to child option ids (names are accepted in the call).
 */
export function setCascade(ctx: SchemaContext, base: Base, parent: ColumnMeta, child: ColumnMeta, raw: unknown): void {
  if (parent.type !== 'single-select') throw badRequest(`parent_column ${parent.name} must be a single select column`);
  if (child.type !== 'single-select') throw badRequest(`child_column ${child.name} must be a single select column`);
  if (parent === child) throw badRequest('parent_column and child_column must be two columns');
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('cascade_settings must be an object {parent option: [child options]}');
  const settings: Record<string, string[]> = {};
  for (const [p, list] of Object.entries(raw)) {
    const po = findOption(parent, p);
    if (!po) throw badRequest(`cascade_settings: ${p} is not an option of ${parent.name}`);
    if (!Array.isArray(list)) throw badRequest(`cascade_settings.${p} must be a list of options of ${child.name}`);
    settings[po.id] = list.map((c) => {
      const co = findOption(child, c);
      if (!co) throw badRequest(`cascade_settings.${p}: ${JSON.stringify(c)} is not an option of ${child.name}`);
      return co.id;
    });
  }
  if (ctx.faults.has('cascade-not-stored')) return; // mutant (BASE-3): answered, not kept
  change(ctx, base, () => {
    child.data = { ...(child.data ?? {}), cascade_column_key: parent.key, cascade_settings: settings };
  });
}
