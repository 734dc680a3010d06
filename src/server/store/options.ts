/**
 * Select options (base_operations.yaml `select_column_format`, "column-options/"): every
 * option carries an `id` — clients index options by it, the update call names options by
 * it, and cascade settings map ids to ids. Ids are 6-digit strings as the real service's
 * examples show (`"119376"`), unique within their column.
 */
import { randomInt } from 'node:crypto';
import { badRequest } from '../errors.js';
import type { ColumnMeta } from './model.js';

export interface SelectOption {
  id: string;
  name: string;
  color: string;
  textColor: string;
  [extra: string]: unknown;
}

const OPTION_COLORS = ['#FFFCB5', '#FFEAB6', '#FFD9C8', '#E8F5E9', '#DEEBFF', '#EDE7F6'];
const TEXT_COLOR = '#202428';
export const SELECT_TYPES = new Set(['single-select', 'multiple-select']);

export function optionsOf(col: ColumnMeta): SelectOption[] {
  const data = (col.data ??= {});
  if (!Array.isArray(data.options)) data.options = [];
  return data.options as SelectOption[];
}

function newOptionId(taken: Iterable<string>): string {
  const used = new Set(taken);
  for (;;) {
    const id = String(randomInt(100000, 1000000));
    if (!used.has(id)) return id;
  }
}

/** A new option with an id and colours (the palette in turn when none is given). */
function newOption(
  existing: readonly SelectOption[],
  name: string,
  given: Record<string, unknown> = {},
  withId = true,
): SelectOption {
  const color = typeof given.color === 'string' ? given.color : OPTION_COLORS[existing.length % OPTION_COLORS.length]!;
  const textColor = typeof given.textColor === 'string' ? given.textColor : TEXT_COLOR;
  const kept =
    typeof given.id === 'string' && given.id !== '' && !existing.some((o) => o.id === given.id) ? given.id : undefined;
  // `withId` false: the mutant that gives no id to an option that came without one.
  const id = kept ?? (withId ? newOptionId(existing.map((o) => o.id)) : undefined);
  return { ...given, name, color, textColor, ...(id === undefined ? {} : { id }) } as SelectOption;
}

/** Checked option definitions (`[{name, color?, textColor?, id?}]`), appended after `existing`. */
export function parseOptions(
  raw: unknown,
  existing: readonly SelectOption[],
  field = 'options',
  withId = true,
): SelectOption[] {
  if (!Array.isArray(raw)) throw badRequest(`${field} must be an array of {name, color, textColor}`);
  const all = [...existing];
  const added: SelectOption[] = [];
  raw.forEach((o, i) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw badRequest(`${field}[${i}] must be an object`);
    const name = (o as Record<string, unknown>).name;
    if (typeof name !== 'string' || name.trim() === '') throw badRequest(`${field}[${i}]: name is required`);
    if (all.some((x) => x.name === name)) throw badRequest(`${field}[${i}]: option ${name} exists`);
    const option = newOption(all, name, o as Record<string, unknown>, withId);
    all.push(option);
    added.push(option);
  });
  return added;
}

/** The option a client names, by id or by name. */
export function findOption(col: ColumnMeta, ref: unknown): SelectOption | undefined {
  const opts = optionsOf(col);
  return opts.find((o) => o.id === ref) ?? opts.find((o) => o.name === ref);
}

/** Make sure each named option exists, creating the unknown ones (row writes, type changes). */
export function ensureOptions(
  col: ColumnMeta,
  names: readonly string[],
  create: boolean,
): { created: boolean; missing?: string } {
  const opts = optionsOf(col);
  let created = false;
  for (const name of names) {
    if (opts.some((o) => o.name === name)) continue;
    if (!create) return { created, missing: name };
    opts.push(newOption(opts, name));
    created = true;
  }
  return { created };
}
