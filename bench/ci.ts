/**
 * Bench (issue 13 item 3): the CI job as CI runs it — `git clone` of this checkout's HEAD
 * to a fresh folder (with `../shared` beside it when this checkout has one), then
 * `CI=true bash .ci/run` there: npm ci, the static checks, the tests project and the
 * selftest. Target ≤ 10 min. From the clone's own test report it also gives the duration
 * of each project (issue 13 item 2 reads the selftest's: target ≤ 5 min). Takes as long
 * as CI does; `npm run bench -- server` and the like leave it out.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const LIMIT_MS = 90 * 60_000;

interface Spec {
  title: string;
  file: string;
  tests: { projectName: string; results: { duration: number }[] }[];
}
interface Suite {
  specs?: Spec[];
  suites?: Suite[];
}

/** Summed test time per project, and the selftest's own duration (it is one test). */
function projectTimes(report: string): Record<string, number> {
  const r = JSON.parse(readFileSync(report, 'utf8')) as { suites: Suite[] };
  const sums: Record<string, number> = {};
  const walk = (s: Suite) => {
    for (const spec of s.specs ?? [])
      for (const t of spec.tests)
        for (const x of t.results) sums[t.projectName] = (sums[t.projectName] ?? 0) + x.duration;
    for (const c of s.suites ?? []) walk(c);
  };
  r.suites.forEach(walk);
  return sums;
}

export async function run(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ci-'));
  try {
    const repo = join(dir, 'repo');
    const clone = spawnSync('git', ['clone', '-q', ROOT, repo], { encoding: 'utf8' });
    if (clone.status !== 0) throw new Error(`git clone: ${clone.stderr}`);
    const shared = resolve(ROOT, '..', 'shared');
    if (existsSync(shared)) symlinkSync(shared, join(dir, 'shared'));
    const started = performance.now();
    const { code, out } = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn('bash', ['.ci/run'], {
        cwd: repo,
        env: { ...process.env, CI: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d;
      });
      child.stderr.resume();
      const timer = setTimeout(() => child.kill('SIGTERM'), LIMIT_MS);
      child.on('close', (c) => {
        clearTimeout(timer);
        done({ code: c, out: text });
      });
    });
    const wall = (performance.now() - started) / 1000;
    const figures: Record<string, number | string> = {
      'CI wall (min)': Math.round(wall / 6) / 10,
      'exit code': code ?? 'killed',
      'last line': out.trim().split('\n').at(-1) ?? '',
    };
    const report = join(repo, 'reports', 'project-tests.json');
    if (existsSync(report)) {
      const times = projectTimes(report);
      for (const [project, ms] of Object.entries(times))
        figures[`${project}: test time (min)`] = Math.round(ms / 6000) / 10;
      const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: { duration: number } }).stats;
      figures['tests and selftest, wall (min)'] = Math.round(stats.duration / 6000) / 10;
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
