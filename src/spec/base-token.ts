/**
 * What the base-token answer (GET /api/v2.1/dtable/app-access-token/) names as the base
 * server, release by release (`behaviourAt(v).baseTokenServer`: the dtable-server while that
 * family is served, the gateway from 5.3), and the evidence ROUTE-3 judges it by. ROUTE-3 and
 * the reference server both read the switch, so they cannot disagree.
 */
import { ev } from './evidence.js';

/** From 5.3 (no dtable-server left): the 6.2 API description's example answer (api-shapes §1.4). */
export const BASE_TOKEN_NAMES_GATEWAY = ev.documented('OA62 authentication.yaml, Get Base-Token with API-Token: the example answer names dtable_server …/api-gateway/ with use_api_gateway: true (api-shapes §1.4)');

/**
 * Before 5.3: the 4.3 documentation names the dtable-server (api-shapes §1.4, OA43); and with
 * `use_api_gateway: true` the official Python client does not use `dtable_server` for base
 * calls, it builds the gateway's address from the server URL itself — so an answer naming the
 * still-served dtable-server is no fault, one naming neither server is.
 */
export const BASE_TOKEN_CLIENT_BUILDS_GATEWAY = ev.client("seatable/seatable-api-python seatable_api/main.py SeaTableAPI.auth and api_gateway_wrapper (commit dcd6d1b, since 4435c1a 'support-api-gateway', 2024-03-28): when the answer says use_api_gateway, auth() makes APIGateway(api_gateway_url=self.server_url + '/api-gateway') and every gateway method goes there; dtable_server is read only by the pre-gateway methods");
