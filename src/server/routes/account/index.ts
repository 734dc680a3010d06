/** The account family (§4.2, §4.3, ACCT-*): registered by ./*.ts, one module per endpoint family. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';

export function registerAccount(_app: FastifyInstance, _ctx: ServerContext): void {
  // Filled in by the account family modules.
}
