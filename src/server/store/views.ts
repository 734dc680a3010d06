/**
 * Views of a table (base_operations.yaml "Views"): stored configuration in the base's
 * metadata. Every change is checked whole before it is applied, then saved (which bumps the
 * base's version, so cached row lists see it).
 */
import { nameProblem } from '../text.js';
import { badRequest, notFound } from '../errors.js';
import type { Db } from './db.js';
import { defaultView, shortId, type Base, type TableMeta, type ViewMeta } from './model.js';
import { saveMeta } from './schema.js';
import { parseConjunction, parseFilters, parseHidden, parseSorts } from './view-config.js';

/** A view as the real service answers it: its settings plus the fields of the web app's state. */
export function viewJson(v: ViewMeta) {
  return {
    _id: v._id,
    name: v.name,
    type: v.type,
    is_locked: v.is_locked ?? false,
    filter_conjunction: v.filter_conjunction,
    filters: v.filters,
    sorts: v.sorts,
    groupbys: v.groupbys ?? [],
    group_rows: [],
    groups: [],
    colorbys: {},
    hidden_columns: v.hidden_columns,
    rows: [],
    formula_rows: {},
    link_rows: {},
    summaries: {},
    colors: {},
  };
}

/** The view a path or query names: by name, else by id. */
export function viewOf(table: TableMeta, nameOrId: unknown): ViewMeta {
  if (typeof nameOrId !== 'string' || nameOrId === '') throw badRequest('view_name is required');
  const view = table.views.find((v) => v.name === nameOrId) ?? table.views.find((v) => v._id === nameOrId);
  if (!view) throw notFound(`view ${nameOrId} not found`);
  return view;
}

function checkName(table: TableMeta, name: unknown, self?: ViewMeta): string {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('name is required');
  const bad = nameProblem(name);
  if (bad) throw badRequest(`name ${bad}`);
  if (table.views.some((v) => v.name === name && v !== self)) throw badRequest(`view ${name} exists`);
  return name;
}

export interface ViewSettings {
  name?: unknown;
  type?: unknown;
  is_locked?: unknown;
  filters?: unknown;
  filter_conjunction?: unknown;
  sorts?: unknown;
  groupbys?: unknown;
  hidden_columns?: unknown;
}

/** The settings a body gives, checked; what it leaves out stays as it is. */
function applySettings(table: TableMeta, view: ViewMeta, s: ViewSettings): ViewMeta {
  const next: ViewMeta = { ...view };
  if (s.name !== undefined) next.name = checkName(table, s.name, view);
  if (s.is_locked !== undefined) {
    if (typeof s.is_locked !== 'boolean') throw badRequest('is_locked must be a boolean');
    next.is_locked = s.is_locked;
  }
  if (s.filters !== undefined) next.filters = parseFilters(table, s.filters);
  if (s.filter_conjunction !== undefined) next.filter_conjunction = parseConjunction(s.filter_conjunction);
  if (s.sorts !== undefined) next.sorts = parseSorts(table, s.sorts, 'sorts');
  if (s.groupbys !== undefined) next.groupbys = parseSorts(table, s.groupbys, 'groupbys');
  if (s.hidden_columns !== undefined) next.hidden_columns = parseHidden(table, s.hidden_columns);
  return next;
}

/**
 * A new view. The OpenAPI's create takes name, type and is_locked; the settings of an update
 * are accepted too (the reference server's older clients send filters at creation).
 */
export function createView(db: Db, base: Base, table: TableMeta, s: ViewSettings): ViewMeta {
  const name = checkName(table, s.name);
  const type = s.type === undefined || s.type === null || s.type === '' ? 'table' : s.type;
  if (type !== 'table' && type !== 'archive') throw badRequest('type must be table or archive');
  // filter_conjunction is checked like every other setting (And or Or): a wrong value is refused, not read as And.
  const view = applySettings(
    table,
    { ...defaultView(shortId(table.views.map((v) => v._id))), name, type },
    { ...s, name: undefined },
  );
  table.views.push(view);
  saveMeta(db, base);
  return view;
}

export function updateView(db: Db, base: Base, table: TableMeta, view: ViewMeta, s: ViewSettings): ViewMeta {
  if (s.type !== undefined && s.type !== view.type) throw badRequest('the type of a view cannot be changed');
  const next = applySettings(table, view, s);
  Object.assign(view, next);
  saveMeta(db, base);
  return view;
}

export function deleteView(db: Db, base: Base, table: TableMeta, view: ViewMeta): void {
  // A table is shown through its views: the last one stays.
  if (table.views.length === 1) throw badRequest(`view ${view.name} is the table's only view and cannot be deleted`);
  table.views = table.views.filter((v) => v !== view);
  saveMeta(db, base);
}
