/**
 * Who judged: the harness's version (its package), the revision of the specification it
 * carries (spec/), and a hash of its clause table — recorded in every report, so two runs by
 * different harness versions can be told apart from their reports alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUSES } from './clauses.js';
import { PACKAGE_ROOT } from './layout.js';
import { NEWEST_VERSION } from './versions.js';

/** The specification's own files: their bytes make its revision. */
const SPEC_FILES = ['base-data-api.md', 'clauses.md', 'api-shapes.md', 'target-descriptor.md'] as const;

const sha = (parts: (string | Buffer)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 12);
};

interface Identity {
  name: string;
  version: string;
  /** The newest release the specification describes, and the hash of its files: `6.2+3f9a0c1d2e4b`. */
  specRevision: string;
  /** Hash of every clause's ID, text and source (spec and extended tables). */
  clauseTableHash: string;
}

let cached: Identity | undefined;

export function identity(): Identity {
  if (cached) return cached;
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const spec = sha(SPEC_FILES.map((f) => readFileSync(join(PACKAGE_ROOT, 'spec', f))));
  const clauses = sha(CLAUSES.map((c) => `${c.id}\t${c.text}\t${c.source}`));
  cached = { name: pkg.name, version: pkg.version, specRevision: `${NEWEST_VERSION}+${spec}`, clauseTableHash: clauses };
  return cached;
}

/** One line for `--version` and report headers. */
export const identityLine = (i = identity()) => `${i.name} ${i.version} (specification ${i.specRevision}, clause table ${i.clauseTableHash})`;
