/**
 * The documented answers (SHAPE-8), generated from the endpoint table: for every row
 * documented in the real service's OpenAPI files whose answer is JSON (RESPONSES; NOT_JSON
 * lists the two exports that answer a zip), one successful call — arranged by its recipe in
 * src/harness/answers/ — whose answer must parse with the documented schema. A mismatch is a
 * violation naming the operation and the schema's issues; where the sources disagree both
 * shapes are accepted and the one seen is annotated (`variant`). An operation the target does
 * not serve at all is left to ROUTE-8 (annotated, not judged). One check per group of
 * operations (src/harness/answers/groups.ts).
 *
 * Each check has a scratch world of its own (two linked tables with rows, and pieces made on
 * demand), dropped when it ends: no check reads what another made, so the selftest runs a
 * check alone when only it reaches a mutant's fault (src/mutants/coverage.ts `widen`).
 */
import { NOT_JSON, RESPONSES, offeredAt, type Endpoint } from '../src/spec/index.js';
import {
  GROUPS,
  judgeOperation,
  RECIPES,
  settleGroup,
  settleOne,
  Skip,
  World,
  type OpResult,
} from '../src/harness/answers/index.js';
import { clause, test as base, ev } from '../src/harness/test.js';

const test = base.extend<{ world: World }>({
  world: [
    async ({}, use) => {
      const world = new World();
      await use(world);
      await world.drop();
    },
    { box: 'self' },
  ],
});

const answered = (eps: readonly Endpoint[]) => eps.filter((e) => RESPONSES[e.id] && !(e.id in NOT_JSON));

for (const group of GROUPS) {
  const eps = answered(group.endpoints);
  if (!eps.length) continue;
  test(
    ...clause(
      'SHAPE-8',
      `${group.name}: each documented answer has the documented fields and types (${eps.length} operations)`,
      ev.documented('OA62 response schemas and examples'),
    ),
    async ({ target, state, world }) => {
      // In order, one at a time: recipes share the world, and some put back what they changed.
      const results: [Endpoint, OpResult][] = [];
      for (const ep of eps) {
        const recipe = RECIPES[ep.id];
        if (!recipe) throw new Error(`no SHAPE-8 recipe for ${ep.id} (src/harness/answers/)`);
        results.push([
          ep,
          await settleOne(async () => {
            if (!offeredAt(ep, state.apiVersion)) throw new Skip(`not offered by release ${state.apiVersion}`);
            return judgeOperation(ep, recipe, target, state, world);
          }),
        ]);
      }
      settleGroup(results);
    },
  );
}
