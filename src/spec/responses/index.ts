/**
 * Response shapes for a SHAPE-8 check: the documented 200/201 JSON answer of each operation
 * of the endpoint table that the OpenAPI files document (rows with `openapi`), by endpoint id.
 * Lenient where real servers legitimately vary (see common.ts); each file notes where the
 * sources disagree.
 */
import type { z } from 'zod';
import type { Endpoint } from '../endpoints/index.js';
import { ACCOUNT_RESPONSES } from './account.js';
import { AUTH_RESPONSES } from './auth.js';
import { FILES_RESPONSES } from './files.js';
export { BOTH_READERS } from './files.js';
import { GATEWAY_RESPONSES } from './gateway.js';

type EndpointId = Endpoint['id'];

export const RESPONSES: Partial<Record<EndpointId, z.ZodType>> = {
  ...AUTH_RESPONSES, ...GATEWAY_RESPONSES, ...FILES_RESPONSES, ...ACCOUNT_RESPONSES,
};

/** Documented operations in the table whose answer is not JSON, and what it is instead. */
export const NOT_JSON: Readonly<Record<EndpointId, string>> = {
  // The OpenAPI declares application/json with an empty schema; the answer is the zip
  // (api-shapes §7: the admin path refuses `Accept: application/x-zip-compressed` with 406).
  exportBase: 'the base as a zip file',
  exportBaseUser: 'the base as a zip file (application/x-zip-compressed)',
};
