/**
 * The scratch world of one SHAPE-8 check, built on first use and dropped when the check ends: table A (Name, Num, two single selects, a link to B) with three rows,
 * table B with two, one link a1 → b1. Pieces fewer checks need (a view, a comment, a table
 * for big-data moves) are made on demand, once. Everything carries the run's prefix; a piece
 * that cannot be made is a fixture error of the checks that need it, never a violation.
 */
import { randomBytes } from 'node:crypto';
import { tablesOf, type TableInfo } from '../metadata.js';
import { fixtureMissing, setupOk } from '../outcome.js';
import { appendAll, existingTable, type Scratch } from '../tables.js';
import type { Target } from '../target.js';

export const PICK = { column: 'Pick', options: ['p1', 'p2'] } as const;
export const SUB = { column: 'Sub', options: ['s1', 's2'] } as const;
export const LINK_COLUMN = 'Link';

const options = (names: readonly string[]) => ({
  options: names.map((name, i) => ({ name, color: '#FFFCB5', textColor: '#202428', id: String(100001 + i) })),
});

export interface Tables {
  a: Scratch;
  b: Scratch;
  aId: string;
  bId: string;
  /** data.link_id of the link column (not its key). */
  linkId: string;
  /** Column keys by name, of A and of B. */
  keys: { a: Record<string, string>; b: Record<string, string> };
  rows: { a1: string; a2: string; a3: string };
  other: { b1: string; b2: string };
  /** A's first view: name and id. */
  view: string;
  viewId: string;
}

export class World {
  private readonly made: Scratch[] = [];
  private readonly pieces = new Map<string, Promise<unknown>>();

  /** A piece built once; a failed build is tried again by the next recipe that needs it. */
  once<T>(key: string, build: () => Promise<T>): Promise<T> {
    let p = this.pieces.get(key) as Promise<T> | undefined;
    if (!p) {
      p = build();
      this.pieces.set(key, p);
      p.catch(() => this.pieces.delete(key));
    }
    return p;
  }

  /** A table of the run's prefix that is dropped with the world. */
  async table(target: Target, label: string, columns: Record<string, unknown>[]): Promise<Scratch> {
    const name = `${target.state.tablePrefix}ans_${label}_${randomBytes(2).toString('hex')}`;
    const r = await target.gw(0, 'POST', 'tables/', { json: { table_name: name, columns } });
    setupOk(r, `create table ${name}`);
    const t = existingTable(target, name);
    this.made.push(t);
    return t;
  }

  tables(target: Target): Promise<Tables> {
    return this.once('tables', async () => {
      const b = await this.table(target, 'b', [{ column_name: 'Name', column_type: 'text' }]);
      const a = await this.table(target, 'a', [
        { column_name: 'Name', column_type: 'text' },
        { column_name: 'Num', column_type: 'number' },
        { column_name: PICK.column, column_type: 'single-select', column_data: options(PICK.options) },
        { column_name: SUB.column, column_type: 'single-select', column_data: options(SUB.options) },
      ]);
      setupOk(
        await target.gw(0, 'POST', 'columns/', {
          json: {
            table_name: a.name,
            column_name: LINK_COLUMN,
            column_type: 'link',
            column_data: { table: a.name, other_table: b.name },
          },
        }),
        'add the link column',
      );
      const meta = await tablesOf(target);
      const [ma, mb] = [meta.find((t) => t.name === a.name), meta.find((t) => t.name === b.name)];
      const linkId = ma?.columns.find((c) => c.name === LINK_COLUMN)?.data?.link_id;
      if (!ma?._id || !mb?._id || typeof linkId !== 'string')
        throw fixtureMissing(
          "metadata/ does not show the scratch tables (with their _id) or the link column's data.link_id",
        );
      const [aId, bId] = [ma._id, mb._id];
      const keys = (t: TableInfo) => Object.fromEntries(t.columns.map((c) => [c.name, c.key]));
      const [a1, a2, a3] = await appendAll(target, a, [
        { Name: 'a1', Num: 1, [PICK.column]: 'p1' },
        { Name: 'a2', Num: 2 },
        { Name: 'a3', Num: 3 },
      ]);
      const [b1, b2] = await appendAll(target, b, [{ Name: 'b1' }, { Name: 'b2' }]);
      if (!a1 || !a2 || !a3 || !b1 || !b2) throw fixtureMissing('an append answered fewer row ids than rows');
      setupOk(
        await target.gw(0, 'POST', 'links/', {
          json: { table_id: aId, other_table_id: bId, link_id: linkId, other_rows_ids_map: { [a1]: [b1] } },
        }),
        'POST links/',
      );
      return {
        a,
        b,
        aId,
        bId,
        linkId,
        keys: { a: keys(ma), b: keys(mb) },
        rows: { a1, a2, a3 },
        other: { b1, b2 },
        view: ma.views[0]?.name ?? 'Default View',
        viewId: ma.views[0]?._id ?? '0000',
      };
    });
  }

  /** A view of table A, made once (the checks that change or delete a view make their own). */
  view(target: Target): Promise<string> {
    return this.once('view', async () => {
      const { a } = await this.tables(target);
      const name = `${target.state.tablePrefix}view_${randomBytes(2).toString('hex')}`;
      setupOk(
        await target.gw(0, 'POST', 'views/', { query: { table_name: a.name }, json: { name, type: 'table' } }),
        'create a view',
      );
      return name;
    });
  }

  /** A table of its own for moves to and from big data (they take rows out of the normal list). */
  bigTable(target: Target): Promise<{ t: Scratch; id: string; view: string }> {
    return this.once('big', async () => {
      const t = await this.table(target, 'big', [{ column_name: 'Name', column_type: 'text' }]);
      const m = (await tablesOf(target)).find((x) => x.name === t.name);
      if (!m?._id) throw fixtureMissing(`metadata/ does not show ${t.name} with its _id`);
      return { t, id: m._id, view: m.views[0]?.name ?? 'Default View' };
    });
  }

  /** A comment on row a1, and its id as the row's comment list gives it. */
  comment(target: Target): Promise<string | number> {
    return this.once('comment', async () => {
      const t = await this.tables(target);
      return addComment(target, t, t.rows.a1, 'conformance comment');
    });
  }

  /** Drop everything the world made (a table it could not drop is swept at the end of the run). */
  async drop(): Promise<void> {
    for (const t of this.made.reverse()) await t.drop();
  }
}

/** Create a comment on `row` of A and find its id in the row's comment list. */
export async function addComment(target: Target, t: Tables, row: string, text: string): Promise<string | number> {
  const tag = `${text} ${randomBytes(3).toString('hex')}`;
  setupOk(
    await target.gw(0, 'POST', 'comments/', { query: { table_id: t.aId, row_id: row }, json: { comment: tag } }),
    'create a row comment',
  );
  const r = await target.gw(0, 'GET', 'comments/', { query: { row_id: row } });
  setupOk(r, "list the row's comments");
  const body = r.json<unknown>();
  const list = (Array.isArray(body) ? body : (body as { comment_list?: unknown }).comment_list) as
    { id?: string | number; comment?: string }[] | undefined;
  const id = list?.find((c) => c.comment === tag)?.id;
  if (id === undefined)
    throw fixtureMissing(`the row's comment list does not show the comment just made: ${r.text.slice(0, 200)}`);
  return id;
}
