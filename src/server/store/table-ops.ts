/**
 * Table rename and duplicate (base_operations.yaml "Tables"). A rename changes the name only
 * (rows live in the physical table, which keeps its name). A duplicate is a new table named
 * `<name> (copy)` with the same columns (same keys) and views, and — with
 * `is_duplicate_records` — a copy of every row under a new row id; its link columns get
 * links of their own (a twin in the other table, the rows' links copied with the rows).
 */
import { nameProblem } from '../text.js';
import { badRequest } from '../errors.js';
import { qid } from './db.js';
import { linkData } from './links.js';
import {
  findTable,
  isoNow,
  newColumn,
  newRowId,
  physColumn,
  shortId,
  type Base,
  type ColumnMeta,
  type TableMeta,
} from './model.js';
import { createPhysTable, saveMeta, STORED, withMetaRollback, type SchemaContext } from './schema.js';

export function renameTable(ctx: SchemaContext, base: Base, table: TableMeta, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('new_table_name is required');
  const bad = nameProblem(name);
  if (bad) throw badRequest(`new_table_name ${bad}`);
  const other = findTable(base.meta, name);
  if (other && other !== table) throw badRequest(`table ${name} exists`);
  if (ctx.faults.has('rename-table-drops-rows')) base.db.exec(`DELETE FROM ${qid(table.phys)}`); // mutant (BASE-4): renamed by re-creating the table empty
  table.name = name;
  saveMeta(ctx.db, base);
}

/** `<name> (copy)`, then `(copy 2)`… until free. */
function copyName(base: Base, name: string): string {
  let n = 1;
  let candidate = `${name} (copy)`;
  while (findTable(base.meta, candidate)) candidate = `${name} (copy ${++n})`;
  return candidate;
}

/** A link column of the copy: a new link to the same other table, its twin added there. */
function copyLink(
  base: Base,
  orig: TableMeta,
  copy: TableMeta,
  col: ColumnMeta,
  linkIds: Set<string>,
): { from: string; to: string; selfLink: boolean; copySide: 'row_id' | 'other_row_id' } {
  const d = linkData(col);
  const to = shortId(linkIds);
  linkIds.add(to);
  const selfLink = d.table_id === d.other_table_id;
  const mine = d.table_id === orig._id;
  // Both columns of a link carry the same link data: the original's side becomes the copy's.
  const moved = (data: Record<string, unknown> | null) => ({
    ...data,
    link_id: to,
    table_id: d.table_id === orig._id ? copy._id : d.table_id,
    other_table_id: d.other_table_id === orig._id ? copy._id : d.other_table_id,
  });
  col.data = moved(col.data);
  if (!selfLink) {
    const other = base.meta.tables.find((t) => t._id === (mine ? d.other_table_id : d.table_id));
    const twin = other?.columns.find((c) => c.type === 'link' && linkData(c).link_id === d.link_id);
    if (other && twin) {
      let name = copy.name;
      while (other.columns.some((c) => c.name === name)) name += ' (link)';
      other.columns.push(newColumn(shortId(other.columns.map((c) => c.key)), name, 'link', moved(twin.data)));
    }
  }
  return { from: d.link_id, to, selfLink, copySide: mine ? 'row_id' : 'other_row_id' };
}

export function duplicateTable(
  ctx: SchemaContext,
  base: Base,
  orig: TableMeta,
  withRows: unknown,
  actor: string,
): TableMeta {
  if (typeof withRows !== 'boolean') throw badRequest('is_duplicate_records must be a boolean');
  const phys = `rows_${base.meta.nextPhys}_${base.uuid.replace(/-/g, '').slice(0, 8)}`;
  // Mutant (BASE-4): the copy gets a fresh table's single Name column instead of the original's columns.
  const columns: ColumnMeta[] = ctx.faults.has('duplicate-without-columns')
    ? [newColumn('0000', 'Name', 'text', null)]
    : structuredClone(orig.columns);
  const copy: TableMeta = {
    _id: shortId(base.meta.tables.map((t) => t._id)),
    name: copyName(base, orig.name),
    phys,
    columns,
    views: structuredClone(orig.views),
  };
  return withMetaRollback(base, () =>
    base.db.transaction(() => {
      base.meta.nextPhys++;
      createPhysTable(base.db, phys);
      for (const c of copy.columns)
        if (STORED(c.type)) base.db.exec(`ALTER TABLE ${qid(phys)} ADD COLUMN ${qid(physColumn(c.key))}`);
      const linkIds = new Set(
        base.meta.tables.flatMap((t) => t.columns.filter((c) => c.type === 'link').map((c) => String(c.data?.link_id))),
      );
      const links = copy.columns.filter((c) => c.type === 'link').map((c) => copyLink(base, orig, copy, c, linkIds));
      base.meta.tables.push(copy);
      if (withRows) copyRows(ctx, base, orig, copy, links, actor);
      saveMeta(ctx.db, base);
      return copy;
    })(),
  );
}

function copyRows(
  ctx: SchemaContext,
  base: Base,
  orig: TableMeta,
  copy: TableMeta,
  links: ReturnType<typeof copyLink>[],
  actor: string,
): void {
  const stored = copy.columns
    .filter((c) => STORED(c.type) && orig.columns.some((o) => o.key === c.key))
    .map((c) => qid(physColumn(c.key)));
  const ids = (base.db.prepare(`SELECT _id FROM ${qid(orig.phys)} ORDER BY rowid`).all() as { _id: string }[]).map(
    (r) => r._id,
  );
  const map = new Map(ids.map((id) => [id, newRowId()]));
  const now = isoNow();
  const insert = base.db
    .prepare(`INSERT INTO ${qid(copy.phys)} (_id, _ctime, _mtime, _creator, _last_modifier, _archived${stored.map((c) => `, ${c}`).join('')})
    SELECT ?, ?, ?, ?, ?, _archived${stored.map((c) => `, ${c}`).join('')} FROM ${qid(orig.phys)} WHERE _id = ?`);
  for (const [from, to] of map) insert.run(to, now, now, actor, actor, from);
  const addLink = base.db.prepare(
    'INSERT OR IGNORE INTO links (link_id, row_id, other_row_id, ctime) SELECT ?, ?, ?, ctime FROM links WHERE link_id = ? AND row_id = ? AND other_row_id = ?',
  );
  for (const l of links) {
    const pairs = base.db.prepare('SELECT row_id, other_row_id FROM links WHERE link_id = ?').all(l.from) as {
      row_id: string;
      other_row_id: string;
    }[];
    for (const p of pairs) {
      const row = l.selfLink || l.copySide === 'row_id' ? map.get(p.row_id) : p.row_id;
      const other = l.selfLink || l.copySide === 'other_row_id' ? map.get(p.other_row_id) : p.other_row_id;
      if (row && other) addLink.run(l.to, row, other, l.from, p.row_id, p.other_row_id);
    }
  }
}
