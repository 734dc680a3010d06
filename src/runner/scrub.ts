/**
 * A last line of defence: after the reports are written, replace any known secret found in
 * a plain-text artefact. Checks redact as they record; this catches what slipped through
 * (an assertion message, a stack trace) in files that are not compressed.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownSecrets, redactText } from '../client/redact.js';

const TEXT = /\.(json|xml|md|txt|html|log|csv|js|har)$/i;

export function scrubSecrets(dir: string): number {
  const secrets = knownSecrets();
  if (secrets.length === 0) return 0;
  let changed = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (TEXT.test(name) && s.size < 64 * 1024 * 1024) {
        const text = readFileSync(p, 'utf8');
        if (secrets.some((x) => text.includes(x))) {
          writeFileSync(p, redactText(text));
          changed++;
        }
      }
    }
  };
  walk(dir);
  return changed;
}
