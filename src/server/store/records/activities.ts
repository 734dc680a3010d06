/**
 * The base's activity log: every row change the row operations report (`RowEvents`; not SQL's),
 * read as the base's operation log (operations/) and as one row's activities (activities/).
 * A write's changes are kept as one batch (one statement per write, not one per row: the
 * log must not slow the writes down), values as stored, decoded when read. Each change has
 * an operation id (`first_op` + its place in the batch); a base keeps about its newest KEEP.
 */
import type { ColumnType } from '../../../spec/index.js';
import { cachedStatement, type Db } from '../db.js';
import type { CellChange, RowChange, RowEvents } from '../events.js';
import type { Base, ColumnMeta } from '../model.js';
import { decodeValue } from '../values.js';

const KEEP = 10_000;

/** One change of a batch as read back, with its operation id. */
interface Logged {
  op_id: number;
  change: RowChange;
}

/**
 * A batch as kept: tables and columns once, the operation, user and time once (a write's
 * changes share them), then per change its table, row and cells as `[column, value(, old
 * value)]`, with its own operation, user and time only where they differ.
 */
type Cell = [number, unknown] | [number, unknown, unknown];
type Op = [RowChange['op_type'], string, number];
interface Packed {
  t: [string, string][];
  c: [string, string, string, unknown][];
  o: Op;
  r: ([number, string, string, Cell[]] | [number, string, string, Cell[], Op])[];
}

function pack(changes: readonly RowChange[]): string {
  const first = changes[0]!;
  const p: Packed = { t: [], c: [], o: [first.op_type, first.op_user, first.op_time], r: [] };
  const tables = new Map<string, number>();
  const cols = new Map<string, number>();
  const index = <K>(m: Map<string, number>, key: string, list: K[], item: () => K) => {
    let i = m.get(key);
    if (i === undefined) {
      i = list.push(item()) - 1;
      m.set(key, i);
    }
    return i;
  };
  for (const c of changes) {
    const ti = index(tables, c.table_id, p.t, () => [c.table_id, c.table_name] as [string, string]);
    const cells = c.row_data.map((d): Cell => {
      const ci = index(
        cols,
        `${c.table_id}/${d.column_key}`,
        p.c,
        () => [d.column_key, d.column_name, d.column_type, d.column_data] as Packed['c'][number],
      );
      return 'old_value' in d ? [ci, d.value, d.old_value] : [ci, d.value];
    });
    const same = c.op_type === p.o[0] && c.op_user === p.o[1] && c.op_time === p.o[2];
    p.r.push(
      same ? [ti, c.row_id, c.row_name, cells] : [ti, c.row_id, c.row_name, cells, [c.op_type, c.op_user, c.op_time]],
    );
  }
  return JSON.stringify(p);
}

function unpack(baseUuid: string, text: string): RowChange[] {
  const p = JSON.parse(text) as Packed;
  return p.r.map(([ti, rowId, rowName, cells, op = p.o]) => ({
    base_uuid: baseUuid,
    table_id: p.t[ti]![0],
    table_name: p.t[ti]![1],
    row_id: rowId,
    row_name: rowName,
    op_type: op[0],
    op_user: op[1],
    op_time: op[2],
    row_data: cells.map(([ci, value, ...old]) => {
      const [key, name, type, data] = p.c[ci]!;
      return {
        column_key: key,
        column_name: name,
        column_type: type,
        column_data: data,
        value,
        ...(old.length ? { old_value: old[0] } : {}),
      };
    }),
  }));
}

class ActivityLog implements RowEvents {
  constructor(private readonly db: Db) {}

  wants(): boolean {
    return true;
  }

  emit(all: RowChange[]): void {
    const uuid = all[0]?.base_uuid;
    if (uuid === undefined) return;
    const changes = all.length > KEEP ? all.slice(-KEEP) : all;
    const db = this.db;
    db.transaction(() => {
      const last = cachedStatement(
        db,
        'SELECT first_op + count FROM base_activities WHERE base_uuid = ? ORDER BY id DESC LIMIT 1',
      )
        .pluck()
        .get(uuid) as number | undefined;
      cachedStatement(db, 'INSERT INTO base_activities (base_uuid, first_op, count, changes) VALUES (?, ?, ?, ?)').run(
        uuid,
        last ?? 1,
        changes.length,
        pack(changes),
      );
      // Batches wholly older than the newest KEEP changes go.
      cachedStatement(db, 'DELETE FROM base_activities WHERE base_uuid = ? AND first_op + count <= ? - ?').run(
        uuid,
        (last ?? 1) + changes.length,
        KEEP,
      );
    })();
  }
}

/**
 * Webhooks (or whoever listened before) and the activity log both hear the row operations'
 * changes. SQL writes are left out of the log: their changed rows would have to be read back
 * on every statement (a bulk UPDATE took five times as long), so only webhooks ask for them.
 */
export function alsoLogActivities(inner: RowEvents, db: Db): RowEvents {
  const log = new ActivityLog(db);
  return {
    wants: (uuid, via) => (via === 'sql' ? inner.wants(uuid, via) : true),
    emit(changes, via) {
      if (via !== 'sql') log.emit(changes);
      const uuid = changes[0]?.base_uuid;
      if (uuid !== undefined && inner.wants(uuid, via)) inner.emit(changes, via);
    },
  };
}

/** The base's changes, newest first, those of `rowId` only if given. */
function* newestFirst(db: Db, base: Base, rowId?: string): Generator<Logged> {
  const batches = cachedStatement(
    db,
    'SELECT first_op, changes FROM base_activities WHERE base_uuid = ? ORDER BY id DESC',
  ).iterate(base.uuid) as IterableIterator<{ first_op: number; changes: string }>;
  for (const b of batches) {
    if (rowId !== undefined && !b.changes.includes(JSON.stringify(rowId))) continue;
    const list = unpack(base.uuid, b.changes);
    for (let i = list.length - 1; i >= 0; i--)
      if (rowId === undefined || list[i]!.row_id === rowId) yield { op_id: b.first_op + i, change: list[i]! };
  }
}

function page<T>(items: Iterable<T>, pageNo: number, perPage: number): { items: T[]; total: number } {
  const from = (pageNo - 1) * perPage;
  const out: T[] = [];
  let total = 0;
  for (const x of items) {
    if (total >= from && out.length < perPage) out.push(x);
    total++;
  }
  return { items: out, total };
}

const decoded = (d: CellChange, v: unknown) =>
  decodeValue({ type: d.column_type as ColumnType, data: d.column_data } as ColumnMeta, v);
const byKey = (list: CellChange[], pick: (d: CellChange) => unknown) =>
  Object.fromEntries(list.map((d) => [d.column_key, decoded(d, pick(d))]));

/** The base's operation log, newest first (`op_time` in ms, `operation` a JSON text as the OpenAPI shows). */
export function baseOperations(db: Db, base: Base, pageNo: number, perPage: number) {
  return {
    operations: page(newestFirst(db, base), pageNo, perPage).items.map(({ op_id, change: c }) => {
      const what =
        c.op_type === 'insert_row'
          ? { row_data: byKey(c.row_data, (d) => d.value) }
          : c.op_type === 'modify_row'
            ? {
                updated: byKey(c.row_data, (d) => d.value),
                ...(c.row_data.some((d) => 'old_value' in d) ? { old_row: byKey(c.row_data, (d) => d.old_value) } : {}),
              }
            : { deleted_row: { _id: c.row_id } };
      return {
        app: null,
        author: c.op_user,
        op_id,
        op_time: Math.round(c.op_time * 1000),
        operation: JSON.stringify({ op_type: c.op_type, table_id: c.table_id, row_id: c.row_id, ...what }),
      };
    }),
  };
}

/** One row's activities, newest first, with their number. */
export function rowActivities(db: Db, base: Base, rowId: string, pageNo: number, perPage: number) {
  const { items, total } = page(newestFirst(db, base, rowId), pageNo, perPage);
  return {
    activities: items.map(({ op_id, change: c }) => ({
      id: op_id,
      dtable_uuid: c.base_uuid,
      row_id: c.row_id,
      op_user: c.op_user,
      op_type: c.op_type,
      op_time: new Date(c.op_time * 1000).toISOString(),
      detail: {
        table_id: c.table_id,
        table_name: c.table_name,
        row_name: c.row_name,
        row_data: c.row_data.map((d) => ({
          ...d,
          value: decoded(d, d.value),
          ...('old_value' in d ? { old_value: decoded(d, d.old_value) } : {}),
        })),
      },
    })),
    total_count: total,
  };
}
