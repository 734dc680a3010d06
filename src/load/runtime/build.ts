/**
 * Prepares code for the built-in runner: the VU worker is bundled once into
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
import { CODE_EXT, COMPILED } from '../../spec/layout.js';

const here = dirname(fileURLToPath(import.meta.url));
const bundles = new Map<string, Promise<string>>();

/** The threads' entry files (beside this module) and the names of their bundles. */
export const THREAD_ENTRIES = {
  'vu-worker': `worker${CODE_EXT}`,
} as const;
type Thread = keyof typeof THREAD_ENTRIES;

/**
 * Bundle a thread's entry file into CommonJS (esbuild's options; `npm pack` uses them too). A
 * bundle in the temp dir cannot resolve packages, so http-parser-js goes in it; the package's own
 * bundles, beside its node_modules, leave it out (`external`).
 */
export async function bundleThread(thread: Thread, external: readonly string[] = []): Promise<string> {
  const out = await build({
    entryPoints: [join(here, THREAD_ENTRIES[thread])],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    external: ['hdr-histogram-js', ...external],
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** The path of a thread's bundle: the package's own (built by `npm pack`), or bundled once per process, cached by content in the temp dir. */
function threadFile(thread: Thread): Promise<string> {
  if (COMPILED) return Promise.resolve(join(here, `${thread}.cjs`));
  let file = bundles.get(thread);
  if (!file) {
    file = (async () => {
      const code = await bundleThread(thread);
      const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
      const dir = join(tmpdir(), 'conformance-load');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${thread}-${hash}.cjs`);
      if (!existsSync(path)) writeFileSync(path, code);
      return path;
    })();
    bundles.set(thread, file);
  }
  return file;
}

/** Path of the bundled VU worker. */
export function workerBundle(): Promise<string> {
  return threadFile('vu-worker');
}

/** The k6 bundle as CommonJS for the VU workers. */
export async function toCommonJs(bundleCode: string): Promise<string> {
  const out = await transform(bundleCode, { loader: 'js', format: 'cjs', target: 'es2020', logLevel: 'silent' });
  return out.code;
}
