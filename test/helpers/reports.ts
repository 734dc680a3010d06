/**
 * Reading what a run wrote: results.json, the HTML report's embedded data (a base64 zip
 * inside index.html), and every artefact as text — zips opened, the HTML data decoded —
 * for the secret search.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import JSZip from 'jszip';
import { clauseTable } from '../../src/reports/outcomes.js';
import { Results } from '../../src/reports/results-schema.js';

export function readResults(dir: string): Results {
  return Results.parse(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')));
}

const TEMPLATE = /<template id="playwrightReportBase64">data:application\/zip;base64,([^<]+)<\/template>/;

/** The HTML report's data files (report.json and one JSON per test file), decoded. */
async function htmlReportData(dir: string): Promise<Map<string, string>> {
  const html = readFileSync(join(dir, 'html', 'playwright', 'index.html'), 'utf8');
  const m = TEMPLATE.exec(html);
  if (!m) throw new Error('index.html carries no embedded report data');
  return unzip(Buffer.from(m[1]!, 'base64'));
}

async function unzip(buf: Buffer): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(buf);
  const out = new Map<string, string>();
  for (const [name, f] of Object.entries(zip.files)) if (!f.dir) out.set(name, await f.async('string'));
  return out;
}

interface HtmlTest {
  title: string;
  /** Playwright's: `unexpected` for a failed check. */
  outcome: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  annotations: { type: string; description?: string }[];
  results: {
    annotations?: { type: string; description?: string }[];
    attachments: { name: string; body?: string; path?: string }[];
  }[];
}

/** Every test of the HTML report. */
export async function htmlTests(dir: string): Promise<HtmlTest[]> {
  const data = await htmlReportData(dir);
  const tests: HtmlTest[] = [];
  for (const [name, text] of data)
    if (name !== 'report.json') tests.push(...(JSON.parse(text) as { tests: HtmlTest[] }).tests);
  return tests;
}

/** Every file under `dir` as text, with zip archives and the HTML report's embedded data opened: [label, text]. */
export async function everyArtefact(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const walk = async (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        await walk(p);
        continue;
      }
      const bytes = readFileSync(p);
      const label = relative(dir, p);
      out.push([label, bytes.toString('utf8')], [`${label} (bytes)`, bytes.toString('latin1')]);
      if (bytes.subarray(0, 2).toString() === 'PK')
        for (const [n, t] of await unzip(bytes)) out.push([`${label}!${n}`, t]);
      const m = TEMPLATE.exec(bytes.toString('utf8'));
      if (m) for (const [n, t] of await unzip(Buffer.from(m[1]!, 'base64'))) out.push([`${label}!${n}`, t]);
    }
  };
  await walk(dir);
  return out;
}

/** The secret and its base64 forms at each alignment (an attachment or buffer may carry it encoded). */
function needles(secret: string): string[] {
  const out = [secret];
  for (let j = 0; j < 3; j++) {
    const tail = Buffer.from(secret).subarray(j);
    const full = Math.floor(tail.length / 3) * 4;
    const b64 = tail.toString('base64').slice(0, full);
    if (b64.length >= 12) out.push(b64, b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Where any of `secrets` occurs in `texts`: "label: secret #i (form)". */
export function findSecrets(texts: [string, string][], secrets: readonly string[]): string[] {
  const hits: string[] = [];
  secrets.forEach((s, i) => {
    for (const n of needles(s))
      for (const [label, text] of texts)
        if (text.includes(n)) hits.push(`${label}: secret #${i} (${n === s ? 'plain' : 'base64'}) ${s.slice(0, 3)}…`);
  });
  return [...new Set(hits)];
}

/** A results.json of the given checks — [clause, title, outcome] each — for the selftest's verdict tests. */
export function fakeResults(tests: [string, string, Results['tests'][number]['outcome']][]): Results {
  const list = tests.map(([clause, title, outcome]) => ({
    title,
    clause,
    basis: 'spec' as const,
    family: clause.split('-')[0]!,
    project: 'functional',
    file: 'x.spec.ts',
    outcome,
    durationMs: 1,
    message: outcome === 'pass' ? undefined : `${outcome}: because`,
  }));
  const totals = { pass: 0, fail: 0, skip: 0, error: 0, tests: list.length, assertionWarnings: 0 };
  for (const t of list) totals[t.outcome]++;
  return {
    schemaVersion: 2,
    tool: { name: 't', version: '0', specRevision: 's', clauseTableHash: 'c' },
    run: { startedAt: '', durationMs: 0 },
    totals,
    runErrors: [],
    warnings: [],
    clauses: clauseTable(list),
    tests: list,
  };
}
