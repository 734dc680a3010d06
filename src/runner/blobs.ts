/**
 * The one choke point every merged report passes: the phases' blob reports. Before they
 * are merged into HTML, JUnit and results, each is opened and every known secret replaced
 * — in the event stream (error messages, step errors, stdout, annotations, inline
 * attachments as base64) and in the attachment files beside it. What a check printed or
 * asserted with a token in it therefore reaches no artefact, whichever reporter reads it.
 * A check whose failure kept its worker is made a plain failure again here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import JSZip from 'jszip';
import { mayHoldSecret, redactBytes, redactText } from '../client/redact.js';
import { KEPT_WORKER } from '../harness/keep-worker.js';

/** Keys whose string values are base64-encoded bytes (inline attachments, stdio buffers). */
const BASE64_KEYS = new Set(['base64', 'buffer']);
const ENCODED = /"(base64|buffer)"\s*:/;

function redactB64(b64: string): string {
  const bytes = Buffer.from(b64, 'base64');
  const clean = redactBytes(bytes);
  return clean === bytes ? b64 : clean.toString('base64');
}

/** Deep copy of a blob event with secrets replaced. */
function redactEvent(v: unknown, key = ''): unknown {
  if (typeof v === 'string') return BASE64_KEYS.has(key) ? redactB64(v) : redactText(v);
  if (Array.isArray(v)) return v.map((x) => redactEvent(x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactEvent(x, k)]));
  return v;
}

interface TestEndEvent {
  method: 'onTestEnd';
  params: { test: { expectedStatus: string }; result: { annotations?: { type: string }[] } };
}

/**
 * A failed check whose worker was kept (src/harness/keep-worker.ts) ended as an expected
 * failure: here it becomes the plain failure it is, its mark removed, before any reporter reads it.
 */
function unkeep(event: unknown): unknown {
  const e = event as Partial<TestEndEvent>;
  const annotations = e.method === 'onTestEnd' ? e.params?.result.annotations : undefined;
  if (!e.params || !annotations?.some((a) => a.type === KEPT_WORKER)) return event;
  const rest = annotations.filter((a) => a.type !== KEPT_WORKER);
  return {
    ...e,
    params: {
      ...e.params,
      test: { ...e.params.test, expectedStatus: 'passed' },
      result: { ...e.params.result, annotations: rest.length ? rest : undefined },
    },
  };
}

function redactJsonl(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      // Most events hold no secret, no encoded bytes and no kept worker: one scan of the line says so.
      if (!ENCODED.test(line) && !mayHoldSecret(line) && !line.includes(KEPT_WORKER)) return line;
      try {
        return JSON.stringify(redactEvent(unkeep(JSON.parse(line))));
      } catch {
        return redactText(line);
      }
    })
    .join('\n');
}

/** Rewrite one blob zip without secrets; returns how many entries changed. */
export async function scrubBlob(file: string): Promise<number> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  // Rebuilt from file entries only: Playwright's merge cannot take directory entries.
  const out = new JSZip();
  let changed = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const bytes = await entry.async('nodebuffer');
    const clean = entry.name.endsWith('.jsonl') ? Buffer.from(redactJsonl(bytes.toString('utf8'))) : redactBytes(bytes);
    if (!clean.equals(bytes)) changed++;
    out.file(entry.name, clean, { createFolders: false });
  }
  if (changed) writeFileSync(file, await out.generateAsync({ type: 'nodebuffer', compression: 'STORE' }));
  return changed;
}
