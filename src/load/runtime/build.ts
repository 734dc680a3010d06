/**
 * Prepares code for the built-in runner: the VU worker and the I/O thread are bundled once into
 * plain CommonJS (threads then start without a TypeScript loader), and a k6 bundle — the very file stock
 * k6 runs — is rewritten from ES module syntax to CommonJS so `k6/*` imports resolve to the
 * runner's modules. Only the module syntax changes; the script's code is untouched.
 */
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bundles = new Map<string, Promise<string>>();

/** Bundle a thread's entry file once per process into CommonJS, cached by content in the temp dir. */
function bundleWorker(entry: string, name: string): Promise<string> {
  let file = bundles.get(entry);
  if (!file) {
    file = (async () => {
      const out = await build({
        entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
        write: false, external: ['hdr-histogram-js'], logLevel: 'silent',
      });
      const code = out.outputFiles[0]!.text;
      const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
      const dir = join(tmpdir(), 'conformance-load');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${name}-${hash}.cjs`);
      if (!existsSync(path)) writeFileSync(path, code);
      return path;
    })();
    bundles.set(entry, file);
  }
  return file;
}

/** Path of the bundled VU worker. */
export function workerBundle(): Promise<string> {
  return bundleWorker(join(here, 'worker.ts'), 'vu-worker');
}

/** Path of the bundled I/O thread, undici included (the file lives outside node_modules' reach). */
export function ioWorkerBundle(): Promise<string> {
  return bundleWorker(join(here, '../engine/io-worker.ts'), 'io-worker');
}

/** The k6 bundle as CommonJS for the VU workers. */
export async function toCommonJs(bundleCode: string): Promise<string> {
  const out = await transform(bundleCode, { loader: 'js', format: 'cjs', target: 'es2020', logLevel: 'silent' });
  return out.code;
}
