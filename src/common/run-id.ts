/**
 * A run's id and the prefix of the tables it creates in a target's bases:
 * `cf_<yyyymmddHHMMSS>_<4 chars>_`, sortable by age, unlikely to meet a real table, and what
 * `conformance clean` sweeps. Dependency-free: the k6 load scripts bundle it too.
 */
export const PREFIX_RE = /^cf_(\d{14})_([a-z0-9]{4})_/;

export function newRunId(now = new Date()): { runId: string; tablePrefix: string } {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const runId = `${stamp}_${Math.random().toString(36).slice(2, 6).padEnd(4, '0')}`;
  return { runId, tablePrefix: `cf_${runId}_` };
}
