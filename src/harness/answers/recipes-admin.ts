/**
 * SHAPE-8 recipes of the team- and system-admin operations in the table. Every write puts
 * back what it changed: a name is written as it already is, the team logo is restored as the
 * route probes restore it (src/harness/logo.ts), and a team user is added only where the run
 * may change the plan (--allow-plan-changes), then deactivated (a team admin cannot delete one).
 */
import { tinyPng } from '../files.js';
import { withTeamLogo } from '../lock.js';
import { hasLogo, readLogo, restoreLogo, uploadLogo } from '../logo.js';
import { fixtureMissing } from '../outcome.js';
import type { RunState } from '../state.js';
import { acct, ADMIN, formOf, jsonOf, obj, skipIf, tag, TEAM } from './calls.js';
import { type Kit, type Recipe, type Recipes } from './kit.js';
import { setupOk } from '../outcome.js';

const org = (state: RunState) => state.target.org_id!;

/** The account as Search User by Team shows it: its user id (`…@auth.local`) and name. */
export async function accountUser(k: Kit): Promise<{ id: string; name: string }> {
  const username = k.state.target.username;
  skipIf(!username, "needs username in the target descriptor (to find the account's user id)");
  const r = await k.target.call(
    acct('GET', 'searchUserByOrgId', {}, { query: { org_id: org(k.state), query: username } }),
  );
  setupOk(r, "search the account's user");
  const users = (obj(r.json()).users ?? []) as { email?: string; contact_email?: string; name?: string }[];
  const u =
    users.find((x) => x.contact_email === username || x.email === username) ??
    (users.length === 1 ? users[0] : undefined);
  if (!u?.email) throw fixtureMissing(`search-user-by-org-id found no user for the account (${users.length} results)`);
  return { id: u.email, name: u.name ?? '' };
}

async function teamName(k: Kit): Promise<string> {
  const r = await k.target.call(acct('GET', 'getTeamInfo'));
  setupOk(r, "Get Team Info (the team's name)");
  const info = obj(r.json());
  if (info.org_id !== org(k.state) || typeof info.org_name !== 'string')
    throw fixtureMissing(`Get Team Info names team ${String(info.org_id)}, not the descriptor's ${org(k.state)}`);
  return info.org_name;
}

const team = (run: Recipe['run']): Recipe => ({ needs: TEAM, run });
const logoPath = (k: Kit) => acct('POST', 'setTeamLogo', { org_id: org(k.state) }).path;
const PAGE = { page: 1, per_page: 10 };

export const ADMIN_RECIPES: Recipes = {
  searchUserByOrgId: team(async (k) => {
    await k.main(
      acct('GET', 'searchUserByOrgId', {}, { query: { org_id: org(k.state), query: k.state.target.username ?? '' } }),
    );
  }),
  pluginsInstallCount: {
    needs: ADMIN,
    async run(k) {
      await k.main(acct('GET', 'pluginsInstallCount'));
    },
  },
  listTeamOperations: team(async (k) => {
    await k.main(acct('GET', 'listTeamOperations', { org_id: org(k.state) }, { query: PAGE }));
  }),
  listTeamLogins: team(async (k) => {
    await k.main(acct('GET', 'listTeamLogins', { org_id: org(k.state) }, { query: PAGE }));
  }),
  getTeamInfo: team(async (k) => {
    await k.main(acct('GET', 'getTeamInfo'));
  }),
  updateTeamInfo: team(async (k) => {
    await k.main(acct('PUT', 'updateTeamInfo', {}, { multipart: formOf({ new_org_name: await teamName(k) }) }));
  }),
  updateTeam: team(async (k) => {
    await k.main(acct('PUT', 'updateTeam', { org_id: org(k.state) }, { json: { org_name: await teamName(k) } }));
  }),
  getTeamUser: team(async (k) => {
    await k.main(acct('GET', 'getTeamUser', { org_id: org(k.state), user_id: (await accountUser(k)).id }));
  }),
  updateTeamUser: team(async (k) => {
    const u = await accountUser(k);
    await k.main(
      acct('PUT', 'updateTeamUser', { org_id: org(k.state), user_id: u.id }, { multipart: formOf({ name: u.name }) }),
    );
  }),
  updateUser: team(async (k) => {
    const u = await accountUser(k);
    await k.main(acct('PUT', 'updateUser', { user_id: u.id }, { json: { name: u.name } }));
  }),
  addTeamUser: {
    needs: (s) =>
      TEAM(s) ??
      (s.allowPlanChanges
        ? undefined
        : 'adds a user to the team, which a team admin cannot delete (and may cost a seat): needs --allow-plan-changes'),
    async run(k) {
      const email = `${k.state.tablePrefix}user-${tag()}@example.invalid`;
      const r = await k.main(
        acct(
          'POST',
          'addTeamUser',
          { org_id: org(k.state) },
          { multipart: formOf({ email, name: 'Conformance SHAPE-8', password: `Pw-${tag()}-${tag()}` }) },
        ),
      );
      const id = obj(jsonOf(r)).email;
      if (typeof id === 'string')
        k.undo(`team user ${id} (deactivated)`, () =>
          k.target.call(
            acct('PUT', 'updateTeamUser', { org_id: org(k.state), user_id: id }, { form: { is_active: 'false' } }),
          ),
        );
    },
  },
  getTeamLogo: team(async (k) => {
    await k.main(acct('GET', 'getTeamLogo', { org_id: org(k.state) }));
  }),
  // The logo is put back inside the lock, before another check may read it (src/harness/lock.ts).
  setTeamLogo: team((k) =>
    withTeamLogo(async () => {
      const at = logoPath(k);
      const original = await readLogo(k.target, at);
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(tinyPng([tag().charCodeAt(0), 80, 160]))], { type: 'image/png' }),
        'conformance-logo.png',
      );
      try {
        await k.main({ method: 'POST', path: at, auth: 'account', multipart: form });
      } finally {
        await restoreLogo(k.target, at, original);
      }
    }),
  ),
  deleteTeamLogo: team((k) =>
    withTeamLogo(async () => {
      const at = logoPath(k);
      const original = await readLogo(k.target, at);
      // A logo to delete: the team's own (put back afterwards), or one of the check's.
      if (!hasLogo(original))
        setupOk(await uploadLogo(k.target, at, tinyPng([10, 200, 30])), 'upload a logo to delete');
      try {
        await k.main({ method: 'DELETE', path: at, auth: 'account' });
      } finally {
        await restoreLogo(k.target, at, original);
      }
    }),
  ),
};
