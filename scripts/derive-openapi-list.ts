/**
 * Derives spec/openapi-operations.json — every documented operation of the real service's
 * OpenAPI files (seatable/seatable-api-php, folder openapi_input/) as
 * `{ id: operationId, file, method, path }`, sorted by file, path, method.
 *
 *   npx tsx scripts/derive-openapi-list.ts <openapi_input folder | files…> [--out <file>]
 *
 * No YAML dependency: only the four facts above are needed, so the reader below walks the
 * `paths:` block of the block-style YAML those files use (path keys, method keys and their
 * `operationId` lines, found by indentation) and ignores everything else. It refuses what it
 * does not understand (a flow-style `get: {…}`, a method without an operationId) instead of
 * guessing. A `.json` input is read as the same document already converted by any
 * YAML→JSON tool, for files written in a style the reader refuses.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface DocumentedOperation {
  readonly id: string;
  /** The YAML file's name (without folder). */
  readonly file: string;
  readonly method: string;
  /** As documented, query suffix included (`/seafhttp/upload-api/{upload_link}?ret-json=1`). */
  readonly path: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** A mapping key on one line: `key:` or `key: value`, the key possibly quoted. */
function keyOf(line: string): { key: string; rest: string } | undefined {
  const t = line.trim();
  const quoted = /^(['"])(.*?)\1\s*:(?:\s+(.*))?$/.exec(t);
  if (quoted) return { key: quoted[2]!, rest: (quoted[3] ?? '').trim() };
  const plain = /^([^\s#'"][^#]*?):(?:\s+(.*))?$/.exec(t);
  return plain ? { key: plain[1]!, rest: (plain[2] ?? '').trim() } : undefined;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const unquote = (s: string) => s.replace(/\s+#.*$/, '').replace(/^(['"])(.*)\1$/, '$2');

/** The operations of one OpenAPI document given as YAML text. */
export function operationsFromYaml(text: string, file: string): DocumentedOperation[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^paths:\s*(#.*)?$/.test(l));
  if (start < 0) throw new Error(`${file}: no top-level "paths:" block`);
  const out: DocumentedOperation[] = [];
  let pathIndent = -1;
  let methodIndent = -1;
  let fieldIndent = -1;
  let path: string | undefined;
  let method: string | undefined;
  let id: string | undefined;
  const close = () => {
    if (method && path) {
      if (!id) throw new Error(`${file}: ${method.toUpperCase()} ${path} has no operationId`);
      out.push({ id, file, method: method.toUpperCase(), path });
    }
    method = undefined;
    id = undefined;
    fieldIndent = -1;
  };
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const indent = indentOf(line);
    if (indent === 0) break; // the next top-level key ends `paths:`
    if (pathIndent < 0) pathIndent = indent;
    if (indent < pathIndent) throw new Error(`${file}:${i + 1}: unexpected indentation`);
    const k = keyOf(line);
    if (indent === pathIndent) {
      close();
      if (!k || !k.key.startsWith('/')) throw new Error(`${file}:${i + 1}: expected a path key`);
      if (k.rest && k.rest !== '')
        throw new Error(`${file}:${i + 1}: flow-style path item not supported (convert to JSON)`);
      path = k.key;
      methodIndent = -1;
      continue;
    }
    if (methodIndent < 0) methodIndent = indent;
    if (indent === methodIndent) {
      close();
      if (k && METHODS.has(k.key)) {
        if (k.rest) throw new Error(`${file}:${i + 1}: flow-style operation not supported (convert to JSON)`);
        method = k.key;
      }
      continue;
    }
    if (!method || indent < methodIndent) continue;
    if (fieldIndent < 0) fieldIndent = indent;
    if (indent === fieldIndent && k?.key === 'operationId') id = unquote(k.rest);
  }
  close();
  return out;
}

/** The operations of one OpenAPI document already converted to JSON. */
export function operationsFromJson(doc: unknown, file: string): DocumentedOperation[] {
  const paths = (doc as { paths?: Record<string, Record<string, { operationId?: string }>> }).paths;
  if (!paths) throw new Error(`${file}: no "paths"`);
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.has(m))
      .map(([m, op]) => {
        if (!op.operationId) throw new Error(`${file}: ${m.toUpperCase()} ${path} has no operationId`);
        return { id: op.operationId, file, method: m.toUpperCase(), path };
      }),
  );
}

/** File, then path, then method (plain code-unit order, so the output is stable everywhere). */
export function sortOperations(ops: DocumentedOperation[]): DocumentedOperation[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...ops].sort((a, b) => cmp(a.file, b.file) || cmp(a.path, b.path) || cmp(a.method, b.method));
}

/** One operation per line: reviewable diffs when the documentation changes. */
export function formatOperations(ops: readonly DocumentedOperation[]): string {
  return `[\n${ops.map((o) => `  ${JSON.stringify({ id: o.id, file: o.file, method: o.method, path: o.path })}`).join(',\n')}\n]\n`;
}

export function deriveFromFiles(inputs: readonly string[]): DocumentedOperation[] {
  const files = inputs.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => /\.(ya?ml|json)$/.test(f))
          .map((f) => join(p, f))
      : [p],
  );
  if (files.length === 0) throw new Error(`no .yaml/.yml/.json files in ${inputs.join(', ')}`);
  const ops = files.flatMap((f) => {
    const text = readFileSync(f, 'utf8');
    // A converted file keeps the YAML file's name, so the list names the documented file.
    const name = basename(f).replace(/\.json$/, '.yaml');
    return f.endsWith('.json') ? operationsFromJson(JSON.parse(text), name) : operationsFromYaml(text, name);
  });
  const seen = new Set<string>();
  for (const o of ops) {
    const key = `${o.file} ${o.id}`;
    if (seen.has(key)) throw new Error(`${o.file}: operationId ${o.id} twice`);
    seen.add(key);
  }
  return sortOperations(ops);
}

function main(argv: string[]): void {
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? argv[outAt + 1] : resolve(import.meta.dirname, '..', 'spec', 'openapi-operations.json');
  const inputs = argv.filter((_, i) => outAt < 0 || (i !== outAt && i !== outAt + 1));
  if (!out || inputs.length === 0) {
    process.stderr.write(
      'usage: tsx scripts/derive-openapi-list.ts <openapi_input folder | files…> [--out spec/openapi-operations.json]\n',
    );
    process.exit(2);
  }
  const ops = deriveFromFiles(inputs);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, formatOperations(ops));
  const perFile = new Map<string, number>();
  for (const o of ops) perFile.set(o.file, (perFile.get(o.file) ?? 0) + 1);
  process.stderr.write(
    `${ops.length} operations → ${out}\n${[...perFile].map(([f, n]) => `  ${f}: ${n}`).join('\n')}\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
