/** A script's exported options, read by evaluating its init context once (as k6 does before a run). */
import type { ReadyReport } from './vus.js';
import { toCommonJs, workerBundle } from '../runtime/build.js';
import { Worker } from 'node:worker_threads';
import { CTL_BYTES, type Report, type WorkerInit } from '../runtime/protocol.js';

export async function readOptions(
  bundleCode: string,
  env: Record<string, string>,
  scriptDir: string,
): Promise<ReadyReport> {
  const init: WorkerInit = {
    code: await toCommonJs(bundleCode),
    warm: false,
    vu: 0,
    vuInTest: 0,
    env,
    ctl: new SharedArrayBuffer(CTL_BYTES),
    testStart: Date.now(),
    scriptDir,
    instance: new SharedArrayBuffer(16),
    options: '{}',
  };
  const worker = new Worker(await workerBundle(), { workerData: init, execArgv: [] });
  try {
    return await new Promise<ReadyReport>((resolve, reject) => {
      worker.on('message', (r: Report) => {
        if (r.t === 'ready') resolve(r);
        else if (r.t === 'init-error') reject(new Error(`the script's init context failed: ${r.error}`));
      });
      worker.on('error', reject);
      worker.on('exit', () => reject(new Error('the init context ended without options')));
    });
  } finally {
    await worker.terminate();
  }
}
