/**
 * Mutants of the whole documented API's routes and answers (ROUTE-8, SHAPE-8). Each names an
 * operation no other clause relies on, so it fails only its own clause: a missing operation
 * is ROUTE-8's alone (SHAPE-8, AUTH-4 and RATE-1 leave a route that answers the generic 404
 * to it), a wrong answer type SHAPE-8's alone (AUTH-3/AUTH-5 read a token's name and
 * permission, not its creation time).
 */
import { m, type Mutant } from './mutant.js';

export const OPERATIONS_MUTANTS: readonly Mutant[] = [
  m(
    'ROUTE-8',
    'team-rename-missing',
    ['drop:updateTeamInfo'],
    'Update Team (team admin) not implemented: PUT /api/v2.1/org/admin/info/ answers the generic 404.',
  ),
  // One absence, one verdict (src/harness/offered.ts): AUTH-4, AUTH-5, RATE-1 and SHAPE-8 reach this operation too, and skip it.
  m(
    'ROUTE-8',
    'api-token-update-refused',
    ['refuse:updateApiToken'],
    'Update API-Token not offered: PUT …/api-tokens/{app_name}/ answers 405 (Allow: DELETE), with or without credentials.',
  ),
  m(
    'SHAPE-8',
    'api-token-time-as-number',
    ['api-token-time-as-number'],
    'List API-Tokens gives generated_at as a Unix timestamp (a number) instead of the documented time text.',
  ),
];
