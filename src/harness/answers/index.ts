/** Every SHAPE-8 recipe, by endpoint id (one per documented operation with a JSON answer). */
import type { Recipes } from './kit.js';
import { ACCOUNT_RECIPES } from './recipes-account.js';
import { ADMIN_RECIPES } from './recipes-admin.js';
import { AUTH_RECIPES } from './recipes-auth.js';
import { BASE_RECIPES } from './recipes-base.js';
import { FILE_RECIPES } from './recipes-files.js';
import { ROW_RECIPES } from './recipes-rows.js';
import { STRUCTURE_RECIPES } from './recipes-structure.js';

export const RECIPES: Recipes = {
  ...ROW_RECIPES,
  ...STRUCTURE_RECIPES,
  ...BASE_RECIPES,
  ...AUTH_RECIPES,
  ...ACCOUNT_RECIPES,
  ...ADMIN_RECIPES,
  ...FILE_RECIPES,
};

export { judgeOperation, performRecipe } from './kit.js';
export { GROUPS, pooled, settleGroup, settleOne, Skip, type OpResult } from './groups.js';
export { World } from './world.js';
