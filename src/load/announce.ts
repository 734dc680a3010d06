/**
 * What a load run will send where, said before anything is sent: the target host (and
 * whether it is this machine), the scenario, its peak rate, how long it may take and a bound
 * on its requests — for this instance's part of a split run. Scenarios built to exhaust rate
 * limits run against a host that is not loopback only when confirmed, so a typo in a URL
 * cannot hammer a production host.
 */
import { isLoopbackUrl } from '../common/net.js';
import { RATE_LIMITS, type Edition } from '../spec/limits.js';
import { formatDuration, parseDuration } from './engine/duration.js';
import { normaliseScenarios, scenarioEndMs, type Scenario } from './engine/options.js';
import { ArrivalSchedule, partOf, type Part } from './engine/plan.js';
import { segmentString, type Tuple } from './engine/segment.js';
import type { ScenarioInfo } from './scenarios.js';

interface Announcement {
  lines: string[];
  loopback: boolean;
  host: string;
}

const perSecond = (s: Scenario, p: Part) =>
  ((Math.max(s.startRate, ...s.stages.map((st) => st.target)) * 1000) / s.timeUnitMs) * p.rateShare;

/** This instance's iterations of a scenario, or undefined when only time bounds them (constant-vus). */
function iterations(s: Scenario, p: Part): number | undefined {
  switch (s.executor) {
    case 'shared-iterations':
      return p.iterations;
    case 'per-vu-iterations':
      return p.vus * p.iterations;
    case 'constant-vus':
      return undefined;
    default:
      return new ArrivalSchedule(s, p.stripe).total;
  }
}

export function announce(o: {
  scenario: string;
  info: ScenarioInfo | undefined;
  url: string;
  edition: string;
  engine: string;
  options: Record<string, unknown>;
  env: Record<string, string>;
  tuple: Tuple;
  /** An https target: how its certificate is checked (src/client/tls.ts trustWords). */
  tls?: string;
}): Announcement {
  const u = new URL(o.url);
  const loopback = isLoopbackUrl(o.url);
  const scenarios = normaliseScenarios(o.options);
  const parts = scenarios.map((s) => [s, partOf(s, o.tuple)] as const).filter(([, p]) => p.hasWork);
  const edition = (RATE_LIMITS[o.edition as Edition] ? o.edition : 'self-hosted') as Edition;
  const limits = {
    gateway: Number(o.env.LIMIT_GATEWAY) || RATE_LIMITS[edition].gateway || 0,
    account: Number(o.env.LIMIT_ACCOUNT) || RATE_LIMITS[edition].account || 0,
  };
  const perIteration = o.info?.requestsPerIteration(limits);
  const rates = parts.filter(([s]) => s.executor.endsWith('arrival-rate')).map(([s, p]) => perSecond(s, p));
  const vus = parts.filter(([s]) => !s.executor.endsWith('arrival-rate')).reduce((a, [, p]) => a + p.vus, 0);
  const longest = Math.max(0, ...parts.map(([s]) => scenarioEndMs(s)));
  const setup = parseDuration(o.options.setupTimeout ?? '60s') ?? 60_000;
  const counts = parts.map(([s, p]) => iterations(s, p));
  const bounded = counts.every((c) => c !== undefined);
  const total = counts.reduce<number>((a, c) => a + (c ?? 0), 0);
  const rate =
    [
      ...(rates.length ? [`${round(Math.max(...rates))} iterations/s (arrival rate)`] : []),
      ...(vus ? [`as fast as ${vus === 1 ? '1 VU goes' : `${vus} VUs go`} (no pacing)`] : []),
    ].join(' + ') || 'nothing: this instance has no part of the run';
  const requests = !bounded
    ? 'bounded by time only (constant-vus)'
    : perIteration === undefined
      ? `${total} iterations (requests per iteration unknown for a custom script)`
      : `at most ${total * perIteration} (${total} iteration${total === 1 ? '' : 's'} × ≤ ${perIteration}) plus setup and teardown calls`;
  return {
    loopback,
    host: u.host,
    lines: [
      `target:    ${u.protocol}//${u.host} — ${loopback ? 'loopback (this machine)' : 'NOT loopback: a remote host'}${o.edition ? `, ${o.edition}` : ''}${u.protocol === 'https:' ? `, ${o.tls ?? 'TLS verified (system roots)'}` : ''}`,
      `scenario:  ${o.scenario} on the ${o.engine} engine, segment ${segmentOf(o.tuple)}${parts.length < scenarios.length ? ` (${scenarios.length - parts.length} of its scenarios have no part here)` : ''}`,
      `peak rate: ${rate}`,
      `duration:  at most ${formatDuration(longest)} of load (durations + gracefulStop), after a setup of up to ${formatDuration(setup)}`,
      `requests:  ${requests}`,
    ],
  };
}

/** Why a run must not start against this target without confirmation, or undefined. */
export function needsConfirmation(
  info: ScenarioInfo | undefined,
  a: Announcement,
  confirmed: boolean,
): string | undefined {
  if (confirmed || a.loopback || !info?.exhausts) return undefined;
  return `${info.name} is built to exhaust the target's rate limits and ${a.host} is not loopback: check the target, then confirm with --yes (or CONFORMANCE_YES=1)`;
}

const round = (n: number) => Math.round(n * 100) / 100;
const segmentOf = (t: Tuple) => (t.split ? segmentString(t.segment) : '0:1 (the whole run)');
