/** Writes the three outputs of a run into the report directory. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { html } from './html.js';
import { junit } from './junit.js';
import { ResultsSchema, type Results } from './schema.js';

export interface Written {
  results: string;
  junit: string;
  html: string;
}

export function writeReports(dir: string, r: Results): Written {
  // Validate before writing: a results.json that its own schema rejects is a harness bug.
  const checked = ResultsSchema.parse(r);
  mkdirSync(dir, { recursive: true });
  const out: Written = {
    results: join(dir, 'results.json'),
    junit: join(dir, 'junit.xml'),
    html: join(dir, 'report.html'),
  };
  writeFileSync(out.results, JSON.stringify(checked, null, 1));
  writeFileSync(out.junit, junit(checked));
  writeFileSync(out.html, html(checked));
  return out;
}
