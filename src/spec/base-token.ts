/**
 * What the base-token answer (GET /api/v2.1/dtable/app-access-token/) names as the base
 * server, release by release (`behaviourAt(v).baseTokenServer`), and the evidence for it.
 * ROUTE-3 judges by this and the reference server answers by it, so the two cannot disagree.
 */
export const BASE_TOKEN_SERVER_EVIDENCE = {
  /** The 6.2 OpenAPI's example names the gateway: `"dtable_server": "https://cloud.seatable.io/api-gateway/"` (api-shapes §1.4). */
  documentedGateway: 'seatable/seatable-api-php openapi_input/authentication.yaml (6.2), Get Base-Token with API-Token, its example answer: dtable_server …/api-gateway/, use_api_gateway: true',
  /** The 4.3 documentation names the dtable-server (api-shapes §1.4, OA43). */
  documentedDtableServer: 'the 4.3 API documentation (api-shapes §1.4, OA43): dtable_server …/dtable-server/, with dtable_socket and dtable_db',
  /**
   * With `use_api_gateway: true` the official Python client does not use `dtable_server` for
   * base calls: it builds the gateway's address from the server URL itself. So while the
   * dtable-server is served (before 5.3) an answer naming it is no fault.
   */
  client: {
    repo: 'seatable/seatable-api-python',
    commit: 'dcd6d1b01ba90a12fff3fd0137c771982f8a1a14',
    path: 'seatable_api/main.py',
    functions: ['SeaTableAPI.auth', 'api_gateway_wrapper'],
    says: "auth() reads use_api_gateway and, when true, makes APIGateway(api_gateway_url=self.server_url + '/api-gateway'); api_gateway_wrapper sends every gateway method there. dtable_server is kept as dtable_server_url, read only by the pre-gateway methods (since 2024-03-28, commit 4435c1a 'support-api-gateway').",
  },
} as const;
