/**
 * The service's SQL over one table, translated to SQLite by renaming the table and its
 * columns to their physical names. What it refuses is what the service's dialect has not
 * (SeaTable's SQL reference: one SELECT, INSERT INTO, UPDATE or DELETE; `SELECT [DISTINCT]
 * fields FROM table [WHERE] [GROUP BY] [HAVING] [ORDER BY] [LIMIT]`, no subqueries, no
 * compound SELECT, no RETURNING), and more than one table, which this translator does not
 * join. Confinement is not its job: the statement runs on the base's own database
 * (base-db.ts), which holds no accounts, tokens or other bases. Values are never spliced;
 * `?` parameters pass through to be bound by SQLite.
 */
import { INTERNAL_FIELD_OF_TYPE, INTERNAL_FIELDS } from '../../spec/index.js';
import { badRequest } from '../errors.js';
import { qid } from './db.js';
import { physColumn, type Base, type ColumnMeta, type TableMeta } from './model.js';
import { sqlString, tokenize, type Token } from './sql-tokens.js';

const KEYWORDS = new Set(
  (
    'select from where and or not in is null like glob between order by asc desc limit offset group having as distinct ' +
    'update set delete insert into values true false escape collate nocase all exists case when then else end regexp match isnull notnull cast'
  ).split(' '),
);
/** Not in the service's grammar: compound SELECTs; RETURNING (the server adds its own to writes). */
const FORBIDDEN = new Set(['union', 'intersect', 'except', 'returning']);
/** Clauses that may follow the table of a SELECT (after an optional alias). */
const SELECT_TAIL = new Set(['where', 'group', 'order', 'limit', 'having']);
const INTERNALS = new Set<string>(INTERNAL_FIELDS);
/** Column types computed at read time: no physical column. */
const COMPUTED = new Set(['link', 'link-formula', 'formula']);

export type StatementKind = 'select' | 'insert' | 'update' | 'delete';

/** A result column the translator named: its column, and whether its value is computed (read via the row's `_id`). */
export interface OutputColumn {
  col: ColumnMeta;
  computed: boolean;
  alias: boolean;
}

export interface Translated {
  kind: StatementKind;
  sql: string;
  table: TableMeta;
  selectStar: boolean;
  /** The statement has its own LIMIT (else a list returns the default number of rows). */
  hasLimit: boolean;
  /** The translated statement in pieces, and which piece is its LIMIT's row count if that is a number literal. */
  parts: string[];
  limitPart: number;
  /** Which piece is the table's physical name (SELECT reads both stores through it: big-data/sql.ts). */
  tablePart: number;
  paramCount: number;
  /** Result column name → column, for names the translator chose or the client aliased. */
  outputs: Map<string, OutputColumn>;
}

const lower = (t: Token | undefined) => (t && t.kind === 'word' ? t.text.toLowerCase() : '');
const isName = (t: Token | undefined) => !!t && (t.kind === 'ident' || (t.kind === 'word' && !KEYWORDS.has(lower(t))));

function findTable(base: Base, name: string): TableMeta | undefined {
  return (
    base.meta.tables.find((t) => t.name === name) ??
    base.meta.tables.find((t) => t.name.toLowerCase() === name.toLowerCase())
  );
}

function findSqlColumn(table: TableMeta, name: string): ColumnMeta | undefined {
  return (
    table.columns.find((c) => c.name === name) ??
    table.columns.find((c) => c.key === name) ??
    table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())
  );
}

/** Check what follows the table name; returns the alias, if any. */
function checkFrom(kind: StatementKind, sig: Token[], at: number): string | undefined {
  const next = sig[at + 1];
  if (kind === 'select') {
    let i = at + 1;
    let alias: string | undefined;
    if (lower(sig[i]) === 'as') i++;
    if (isName(sig[i]) && !SELECT_TAIL.has(lower(sig[i]))) alias = sig[i++]!.value;
    else if (i !== at + 1) throw badRequest('SQL syntax error: an alias must follow AS');
    const after = sig[i];
    if (after && !SELECT_TAIL.has(lower(after))) throw badRequest('JOIN and more than one table are not supported');
    return alias;
  }
  if (kind === 'delete' && next && lower(next) !== 'where')
    throw badRequest('JOIN and more than one table are not supported');
  if (kind === 'update' && lower(next) !== 'set')
    throw badRequest('SQL syntax error: UPDATE needs SET after the table name');
  if (kind === 'insert' && next && next.text !== '(' && lower(next) !== 'values')
    throw badRequest('SQL syntax error: INSERT needs a column list or VALUES after the table name');
  return undefined;
}

/** Translate one statement; throws a 400 for anything outside the dialect. */
export function translate(base: Base, sqlIn: string): Translated {
  let tokens: Token[];
  try {
    tokens = tokenize(sqlIn);
  } catch (e) {
    throw badRequest(`SQL syntax error: ${(e as Error).message}`);
  }
  while (tokens.length && (tokens[tokens.length - 1]!.kind === 'space' || tokens[tokens.length - 1]!.text === ';'))
    tokens.pop();
  const sig = tokens.filter((t) => t.kind !== 'space');
  if (sig.length === 0) throw badRequest('sql is empty');
  if (sig.some((t) => t.text === ';')) throw badRequest('only one SQL statement per call');
  const kind = lower(sig[0]) as StatementKind;
  if (!['select', 'insert', 'update', 'delete'].includes(kind))
    throw badRequest(`SQL statement ${sig[0]!.text} is not supported`);
  const bad = sig.find((t) => FORBIDDEN.has(lower(t)));
  if (bad) throw badRequest(`${bad.text.toUpperCase()} is not supported`);
  if (sig.filter((t) => lower(t) === 'select').length > (kind === 'select' ? 1 : 0))
    throw badRequest('subqueries are not supported');
  if (kind !== 'select' && kind !== 'delete' && sig.some((t) => lower(t) === 'from'))
    throw badRequest(`${kind.toUpperCase()} … FROM is not supported`);
  if (kind === 'insert' && lower(sig[1]) !== 'into') throw badRequest('SQL syntax error: INSERT needs INTO');

  // The table: after FROM (select, delete), UPDATE, or INTO.
  const anchor = kind === 'update' ? 0 : sig.findIndex((t) => lower(t) === (kind === 'insert' ? 'into' : 'from'));
  const tableAt = anchor + 1;
  const tableTok = anchor >= 0 ? sig[tableAt] : undefined;
  if (!tableTok || (tableTok.kind !== 'word' && tableTok.kind !== 'ident')) throw badRequest('SQL needs a table name');
  const table = findTable(base, tableTok.value!);
  if (!table) throw badRequest(`no such table: ${tableTok.value}`);
  const alias = checkFrom(kind, sig, tableAt);
  const qualifiers = new Set([table.name.toLowerCase(), ...(alias ? [alias.toLowerCase()] : [])]);

  // Where each significant token stands: in the select list, as a write target.
  const sigIndex = new Map(sig.map((t, i) => [t, i]));
  const depthAt = new Map<Token, number>();
  let depth = 0;
  for (const t of sig) {
    if (t.text === ')') depth--;
    if (depth < 0) break;
    depthAt.set(t, depth);
    if (t.text === '(') depth++;
  }
  // Also keeps a condition embedded in a larger statement (archive's `where`) inside its parentheses.
  if (depth !== 0) throw badRequest('SQL syntax error: unbalanced parentheses');
  const setAt = kind === 'update' ? sig.findIndex((t) => lower(t) === 'set') : -1;
  const whereAt = sig.findIndex((t) => lower(t) === 'where');
  const isWriteTarget = (t: Token): boolean => {
    const i = sigIndex.get(t)!;
    if (kind === 'update')
      return (
        i > setAt &&
        (whereAt < 0 || i < whereAt) &&
        depthAt.get(t) === 0 &&
        sig[i + 1]?.text === '=' &&
        (i === setAt + 1 || sig[i - 1]?.text === ',')
      );
    if (kind === 'insert')
      return i > tableAt && depthAt.get(t) === 1 && !sig.slice(tableAt + 1, i).some((x) => lower(x) === 'values');
    return false;
  };
  const inSelectList = (t: Token): boolean => {
    if (kind !== 'select') return false;
    const i = sigIndex.get(t)!;
    if (i >= anchor || depthAt.get(t) !== 0) return false;
    const prev = sig[i - 1];
    const next = sig[i + 1];
    const bareStart = lower(prev) === 'select' || lower(prev) === 'distinct' || prev?.text === ',';
    const bareEnd =
      next?.text === ',' ||
      lower(next) === 'from' ||
      lower(next) === 'as' ||
      next?.kind === 'ident' ||
      (next?.kind === 'word' && !KEYWORDS.has(lower(next)));
    return bareStart && bareEnd;
  };
  const aliasAfter = (t: Token): string | undefined => {
    const i = sigIndex.get(t)!;
    const a = lower(sig[i + 1]) === 'as' ? sig[i + 2] : sig[i + 1];
    return a && isName(a) && lower(a) !== 'from' ? a.value : undefined;
  };

  // LIMIT n, LIMIT n OFFSET m, or MySQL's LIMIT m, n: the count, when it is a literal.
  const limitAt = sig.findIndex((t) => lower(t) === 'limit' && depthAt.get(t) === 0);
  const countTok = limitAt < 0 ? undefined : sig[limitAt + 2]?.text === ',' ? sig[limitAt + 3] : sig[limitAt + 1];
  let limitPart = -1;
  let tablePart = -1;

  const outputs = new Map<string, OutputColumn>();
  let paramCount = 0;
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === tableTok) {
      tablePart = out.length;
      out.push(qid(table.phys));
      continue;
    }
    if (t.kind === 'param') {
      paramCount++;
      out.push('?');
      continue;
    }
    if (t.kind === 'string') {
      out.push(sqlString(t.value!));
      continue;
    }
    if (t === countTok && t.kind === 'number' && /^\d+$/.test(t.text)) limitPart = out.length;
    if (t.kind !== 'word' && t.kind !== 'ident') {
      out.push(t.text);
      continue;
    }
    const si = sigIndex.get(t)!;
    const next = sig[si + 1];
    const prev = sig[si - 1];
    // `Table.column` or `alias.column`: drop the qualifier, keep the column.
    if (next?.text === '.' && qualifiers.has(t.value!.toLowerCase())) {
      i = tokens.indexOf(next);
      continue;
    }
    if (t.kind === 'word' && (KEYWORDS.has(lower(t)) || next?.text === '(')) {
      out.push(t.text);
      continue;
    }
    // The table's alias, or a result alias (after AS, or right after an expression): a name of its own.
    const resultAlias =
      kind === 'select' &&
      si < anchor &&
      depthAt.get(t) === 0 &&
      !!prev &&
      (isName(prev) || prev.text === ')' || prev.kind === 'number' || prev.kind === 'string');
    if (lower(prev) === 'as' || (alias && si === tableAt + 1) || resultAlias) {
      out.push(qid(t.value!));
      continue;
    }
    const name = t.value!;
    if (INTERNALS.has(name)) {
      if (isWriteTarget(t)) throw badRequest(`column ${name} cannot be changed`);
      out.push(name);
      continue;
    }
    const col = findSqlColumn(table, name);
    if (!col) {
      out.push(qid(name));
      continue;
    } // SQLite answers "no such column" (or it is a result alias)
    const internal = INTERNAL_FIELD_OF_TYPE[col.type];
    const computed = COMPUTED.has(col.type);
    if ((internal || computed) && isWriteTarget(t))
      throw badRequest(`column ${col.name} (${col.type}) cannot be changed`);
    if (inSelectList(t) && (internal || computed)) {
      // A bare computed column in the select list: select the row id (or the internal field) under a name we know.
      const given = aliasAfter(t);
      const outName = given ?? physColumn(col.key);
      outputs.set(outName, { col, computed, alias: !!given });
      out.push(given ? (computed ? '_id' : internal!) : `${computed ? '_id' : internal} AS ${qid(outName)}`);
      continue;
    }
    if (inSelectList(t)) {
      const given = aliasAfter(t);
      if (given) outputs.set(given, { col, computed: false, alias: true });
    }
    out.push(internal ?? (computed ? 'NULL' : qid(physColumn(col.key))));
  }
  const selectStar = kind === 'select' && sig[1]?.text === '*' && lower(sig[2]) === 'from';
  const hasLimit = sig.some((t) => lower(t) === 'limit' && depthAt.get(t) === 0);
  return {
    kind,
    sql: out.join(''),
    table,
    selectStar,
    hasLimit,
    parts: out,
    limitPart,
    tablePart,
    paramCount,
    outputs,
  };
}
