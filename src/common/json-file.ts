/**
 * Reading the JSON files a user hands the harness (target descriptors, limits files,
 * baselines): one way to read, validate with zod and say what is wrong in one line.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/** zod issues as one line: `bases.0.uuid: expected string; (root): …`. */
export function issuesLine(error: z.ZodError, max = 10): string {
  return error.issues
    .slice(0, max)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** Validate `raw` with `schema`; a mismatch throws `${where}: <issues>`. */
export function parseWith<T extends z.ZodType>(schema: T, raw: unknown, where: string): z.output<T> {
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`${where}: ${issuesLine(r.error)}`);
  return r.data;
}

/** Read `file` as JSON and validate it; errors name the file (`${what} ${file}: …`). */
export function readJsonFile<T extends z.ZodType>(file: string, schema: T, what: string): z.output<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${what} ${file}: ${(e as Error).message}`);
  }
  return parseWith(schema, raw, `${what} ${file}`);
}
