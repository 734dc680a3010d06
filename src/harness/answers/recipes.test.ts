/** Every documented operation with a JSON answer has a SHAPE-8 recipe, and no recipe names an operation the table lacks. */
import { expect, test } from '@playwright/test';
import { ENDPOINTS, NOT_JSON, RESPONSES } from '../../spec/index.js';
import { RECIPES } from './index.js';

test('SHAPE-8 has a recipe for every documented JSON answer, and only for those', () => {
  const answered = ENDPOINTS.filter((e) => e.openapi && RESPONSES[e.id] && !(e.id in NOT_JSON))
    .map((e) => e.id)
    .sort();
  expect(answered.length).toBeGreaterThan(90);
  expect(Object.keys(RECIPES).sort()).toEqual(answered);
});
