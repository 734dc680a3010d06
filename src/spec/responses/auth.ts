/** 200/201 answers of the token operations (authentication.yaml) and of Get Account Info. */
import { z } from 'zod';
import { flag, success, time, user } from './common.js';

const apiToken = z.looseObject({
  app_name: z.string(),
  api_token: z.string().min(1),
  generated_by: user,
  generated_at: time,
  // Not yet used: the reference server writes null; the OpenAPI shows a time.
  last_access: time.nullable(),
  permission: z.string(),
});

export const AUTH_RESPONSES = {
  authToken: z.looseObject({ token: z.string().min(1) }),
  // 6.x; 4.x answers named dtable-server in `dtable_server`, added `dtable_socket` and
  // `dtable_db` and had no `use_api_gateway` (api-shapes §1.4): the JS client defaults it to false.
  appAccessToken: z.looseObject({
    app_name: z.string(),
    access_token: z.string().min(1),
    dtable_uuid: z.string(),
    dtable_server: z.string(),
    workspace_id: z.number().int(),
    dtable_name: z.string(),
    use_api_gateway: z.boolean().optional(),
    dtable_socket: z.string().optional(),
    dtable_db: z.string().optional(),
  }),
  // The 6.2 OpenAPI: these two only (4.x listed more; extra fields are allowed).
  accountAccessToken: z.looseObject({ access_token: z.string().min(1), dtable_uuid: z.string() }),
  listApiTokens: z.looseObject({ api_tokens: z.array(apiToken) }),
  createApiToken: apiToken,
  updateApiToken: apiToken,
  deleteApiToken: success,
  createTempApiToken: z.looseObject({ api_token: z.string().min(1) }),
  // Team fields only in a team (org) setup; billing and e-mail settings where configured.
  getAccountInfo: z.looseObject({
    email: user,
    name: z.string(),
    contact_email: z.string(),
    login_id: z.string(),
    institution: z.string(),
    avatar_url: z.string(),
    is_staff: z.boolean(),
    usage: z.number().int(),
    total: z.number().int(),
    space_usage: z.string(),
    row_usage: z.number().int(),
    row_total: z.number().int(),
    row_usage_rate: z.string(),
    org_id: z.number().int().optional(),
    is_org_staff: flag.optional(),
    enable_chargebee: z.boolean().optional(),
    enable_subscription: z.boolean().optional(),
    dtable_updates_email_interval: z.number().int().optional(),
    dtable_collaborate_email_interval: z.number().int().optional(),
  }),
} satisfies Record<string, z.ZodType>;
