/**
 * The reference server in its own process for a load run, so the target and the generator
 * do not share one thread (and, on two cores, get one each). Options arrive as JSON in
 * argv[2]; the descriptor goes back over IPC. It ends when its parent goes away.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { harnessEnv } from '../common/harness-env.js';
import type { TargetDescriptor } from '../spec/descriptor.js';
import { COMPILED, distTwin } from '../spec/layout.js';

interface ChildServerOptions {
  rateWindowSeconds: number;
  unlimited: boolean;
  env: Record<string, string>;
}

export interface ChildServer {
  descriptor: TargetDescriptor;
  close(): Promise<void>;
}

/**
 * What the child runs: this module as it is; from a checkout, its TypeScript through tsx, unless
 * npm test built its compiled twin in dist/ (CONFHARNESS_COMPILED_CLI), which starts without
 * compiling the server again in every child.
 */
function childEntry(): { file: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  if (COMPILED) return { file: self, execArgv: [] };
  const twin = distTwin(self);
  if (harnessEnv('compiledCli') && existsSync(twin)) return { file: twin, execArgv: [] };
  return { file: self, execArgv: ['--import', 'tsx'] };
}

/** Start the server in a child process. */
export async function startChildServer(o: ChildServerOptions): Promise<ChildServer> {
  const entry = childEntry();
  const child: ChildProcess = fork(entry.file, [JSON.stringify(o)], {
    execArgv: entry.execArgv,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const descriptor = await new Promise<TargetDescriptor>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the reference server did not start within 30 s')), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as TargetDescriptor);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference server exited (${code}) before it started`));
    });
  });
  return {
    descriptor,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2] ?? '{}') as ChildServerOptions;
  const { startServer } = await import('../server/index.js');
  const srv = await startServer({
    host: '127.0.0.1',
    port: 0,
    rateWindowSeconds: o.rateWindowSeconds,
    unlimited: o.unlimited,
    env: process.env,
  });
  const stop = () => {
    void srv.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
  process.send?.(srv.descriptor);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.send) void main();
