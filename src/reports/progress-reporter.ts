/**
 * The default terminal reporter of a phase: one line per finished check, in the harness's
 * own outcomes (pass, fail, error, skip with its reason), so the terminal never calls a
 * check "failed" that the reports call an error. Playwright's list/line/dot reporters stay
 * available (`--reporter`). Output goes through the runner's redacting pipe.
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { collect } from './collect.js';
import type { Outcome } from './outcomes.js';
import { harnessEnv } from '../common/harness-env.js';

const useColour = harnessEnv('color') && !process.env.NO_COLOR;
const paint = (code: number) => (s: string) => (useColour ? `\u001b[${code}m${s}\u001b[0m` : s);
const green = paint(32);
const red = paint(31);
const yellow = paint(33);
const dim = paint(2);

const MARK: Record<Outcome, string> = { pass: green('  ✓'), fail: red('  ✘ fail '), error: yellow('  ⚠ error'), skip: dim('  ↷ skip ') };
const DETAIL_LINES = 4;
const projectOf = (test: TestCase): string => test.parent.project()?.name ?? 'checks';

type Tally = Record<Outcome, number>;

export default class ProgressReporter implements Reporter {
  /** Per project (functional, rate): both phases may run in one process, each still summed up on its own. */
  private readonly tallies = new Map<string, Tally>();
  private readonly phase: string;
  private started = Date.now();

  constructor(options: { phase?: string } = {}) {
    this.phase = options.phase ?? 'checks';
  }

  private tally(project: string): Tally {
    let t = this.tallies.get(project);
    if (!t) this.tallies.set(project, (t = { pass: 0, fail: 0, error: 0, skip: 0 }));
    return t;
  }

  printsToStdio() {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.started = Date.now();
    const tests = suite.allTests();
    for (const t of tests) this.tally(projectOf(t));
    const n = tests.length;
    if (n) process.stdout.write(`${this.phase}: ${n} check${n === 1 ? '' : 's'} on ${config.workers} worker${config.workers === 1 ? '' : 's'}\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const t = collect(test, result);
    this.tally(projectOf(test))[t.outcome]++;
    const took = dim(` (${result.duration} ms)`);
    const warned = t.assertionWarnings?.length ?? 0;
    if (t.outcome === 'pass' && !warned) { process.stdout.write(`${MARK.pass} ${t.title}${took}\n`); return; }
    if (t.outcome === 'pass') {
      const lines = t.assertionWarnings!.slice(0, DETAIL_LINES).map((w) => `        warning: ${w.message.split('\n')[0]}${w.exchange ? ` [${w.exchange}]` : ''}`);
      process.stdout.write(`${MARK.pass} ${t.title}${took}${yellow(` — ${warned} assertion warning${warned === 1 ? '' : 's'} (evidence only inferred)`)}\n${lines.map((l) => `${l}\n`).join('')}`);
      return;
    }
    if (t.outcome === 'skip') { process.stdout.write(`${MARK.skip} ${t.title}${dim(` — ${t.message ?? 'no reason given'}`)}\n`); return; }
    const lines = (t.message ?? '').split('\n').filter((l) => l.trim()).slice(0, DETAIL_LINES);
    process.stdout.write(`${MARK[t.outcome]} ${t.title}${took}\n${lines.map((l) => `        ${l}\n`).join('')}`);
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    if (test) process.stdout.write(dim(`        [${test.title.split(' ')[0]} stdout] ${chunk.toString().trimEnd()}\n`));
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    if (test) process.stdout.write(dim(`        [${test.title.split(' ')[0]} stderr] ${chunk.toString().trimEnd()}\n`));
  }

  onError(error: { message?: string }): void {
    process.stdout.write(red(`${this.phase}: ${error.message ?? 'error outside a check'}\n`));
  }

  onEnd(result: FullResult): void {
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    const interrupted = result.status === 'interrupted' ? ', interrupted' : '';
    for (const [project, t] of this.tallies) {
      if (t.pass + t.fail + t.error + t.skip === 0) continue;
      process.stdout.write(`${project}: ${t.pass} passed, ${t.fail} failed, ${t.error} errors, ${t.skip} skipped in ${secs} s${interrupted}\n`);
    }
  }
}
