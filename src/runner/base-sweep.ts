/**
 * Bases the ACCT-8 check creates are named with the run's prefix (`cf_<timestamp>_<id>_base_…`)
 * and deleted by the check itself; a run killed in between leaves one behind. `conformance
 * clean` finds such bases in the account's workspaces and deletes them, where the descriptor
 * has an account (without one there is nothing the run could have created).
 */
import { fieldsOf, form, pathOf } from '../harness/api-tokens.js';
import type { Target } from '../harness/target.js';
import type { Sweep } from './fixtures.js';

export async function sweepBases(target: Target, match: (name: string) => boolean): Promise<Sweep> {
  const sweep: Sweep = { removed: [], problems: [] };
  let workspaces: Record<string, unknown>[];
  try {
    if (!(await target.accountToken())) return sweep;
    const r = await target.account('GET', pathOf('listWorkspaces'));
    if (r.status !== 200)
      return {
        ...sweep,
        problems: [
          `cannot list the account's bases: GET ${pathOf('listWorkspaces')} answered ${r.status}: ${r.text.slice(0, 160)}`,
        ],
      };
    const list = fieldsOf(r.json()).workspace_list;
    workspaces = Array.isArray(list) ? list.map(fieldsOf) : [];
  } catch (e) {
    return { ...sweep, problems: [`cannot list the account's bases: ${(e as Error).message}`] };
  }
  for (const w of workspaces.filter((x) => typeof x.id === 'number')) {
    const bases = (Array.isArray(w.table_list) ? w.table_list : [])
      .map(fieldsOf)
      .map((b) => b.name)
      .filter((n): n is string => typeof n === 'string' && match(n));
    for (const name of bases) {
      try {
        const d = await target.account(
          'DELETE',
          pathOf('deleteBase', { workspace_id: w.id as number }),
          {},
          { multipart: form({ name }) },
        );
        if (d.status < 300) sweep.removed.push(name);
        else
          sweep.problems.push(
            `cannot delete base ${name} of workspace ${String(w.id)}: answered ${d.status}: ${d.text.slice(0, 160)}`,
          );
      } catch (e) {
        sweep.problems.push(`cannot delete base ${name} of workspace ${String(w.id)}: ${(e as Error).message}`);
      }
    }
  }
  return sweep;
}
