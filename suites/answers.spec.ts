/**
 * The documented answers (SHAPE-8), generated from the endpoint table: for every row
 * documented in the real service's OpenAPI files whose answer is JSON (RESPONSES; NOT_JSON
 * lists the two exports that answer a zip), one successful call — arranged by its recipe in
 * src/harness/answers/ — whose answer must parse with the documented schema. A mismatch is a
 * violation naming the operation and the schema's issues; where the sources disagree both
 * shapes are accepted and the one seen is annotated (`variant`). An operation the target
 * does not serve at all is left to ROUTE-8 (skipped here).
 *
 * Each worker shares one scratch world (two linked tables with rows, and pieces made on
 * demand), dropped when the worker ends: the checks of this file share worker-scoped data.
 */
import { ENDPOINTS, NOT_JSON, RESPONSES, offeredAt } from '../src/spec/index.js';
import { judgeRecipe, RECIPES, World } from '../src/harness/answers/index.js';
import { clause, test as base } from '../src/harness/test.js';

const test = base.extend<object, { world: World }>({
  world: [async ({}, use) => {
    const w = new World();
    await use(w);
    await w.drop().catch(() => undefined);
  }, { scope: 'worker' }],
});

const ANSWERED = ENDPOINTS.filter((e) => e.openapi && RESPONSES[e.id] && !(e.id in NOT_JSON));

for (const ep of ANSWERED) {
  test(...clause('SHAPE-8', `${ep.operation}: ${ep.method} ${ep.path} answers the documented shape`, 'compat'), async ({ target, state, world }) => {
    test.skip(!offeredAt(ep, state.apiVersion), `not offered by release ${state.apiVersion}`);
    const recipe = RECIPES[ep.id];
    if (!recipe) throw new Error(`no SHAPE-8 recipe for ${ep.id} (src/harness/answers/)`);
    await judgeRecipe(ep, recipe, target, state, world);
  });
}
