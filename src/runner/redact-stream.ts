/**
 * The phases' terminal output passes through here on its way to ours: known secrets are
 * replaced line by line (a line is the unit reporters write, so a secret is never split
 * across two writes). The secrets a worker learns arrive through the secrets file, read
 * again whenever it has grown.
 */
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { loadSecretsFile, redactText } from '../client/redact.js';

/** A partial line (the dot reporter's dots) is let out after this long without a newline. */
const PARTIAL_FLUSH_MS = 200;

export class SecretsFile {
  private size = -1;
  constructor(readonly path: string) {}
  /** Learn what was appended since the last look. */
  refresh(): void {
    let now = 0;
    try {
      now = statSync(this.path).size;
    } catch {
      return;
    }
    if (now !== this.size) this.size = loadSecretsFile(this.path);
  }
}

export function pipeRedacted(from: Readable, to: Writable, secrets: SecretsFile): Promise<void> {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const emit = (text: string) => {
    if (!text) return;
    secrets.refresh();
    to.write(redactText(text));
  };
  const flushPartial = () => {
    timer = undefined;
    emit(pending);
    pending = '';
  };
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    pending += chunk;
    const cut = pending.lastIndexOf('\n');
    if (cut >= 0) {
      emit(pending.slice(0, cut + 1));
      pending = pending.slice(cut + 1);
    }
    if (timer) clearTimeout(timer);
    if (pending) timer = setTimeout(flushPartial, PARTIAL_FLUSH_MS);
  });
  return new Promise((resolve) => {
    from.on('end', () => {
      if (timer) clearTimeout(timer);
      emit(pending);
      resolve();
    });
    from.on('error', () => resolve());
  });
}
