/**
 * Prepares code for the built-in runner: the VU worker is bundled once into plain CommonJS
 * (workers then start without a TypeScript loader), and a k6 bundle — the very file stock
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
let workerFile: Promise<string> | undefined;

/** Path of the bundled worker (built once per process, cached by content in the temp dir). */
export function workerBundle(): Promise<string> {
  workerFile ??= (async () => {
    const out = await build({
      entryPoints: [join(here, 'worker.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
      write: false, external: ['hdr-histogram-js'], logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.text;
    const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
    const dir = join(tmpdir(), 'conformance-load');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `vu-worker-${hash}.cjs`);
    if (!existsSync(file)) writeFileSync(file, code);
    return file;
  })();
  return workerFile;
}

/** The k6 bundle as CommonJS for the VU workers. */
export async function toCommonJs(bundleCode: string): Promise<string> {
  const out = await transform(bundleCode, { loader: 'js', format: 'cjs', target: 'es2020', logLevel: 'silent' });
  return out.code;
}
