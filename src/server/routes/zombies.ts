/**
 * Mutants only (src/mutants): "zombie" handlers for endpoints the specification removed
 * (GONE-4..8) and that the endpoint table therefore never registers. Each answers the way
 * the old service did, so a suite that probes the removed path must notice. Registered only
 * when its `zombie:<clause>` fault is on; a clean server has none of these routes.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { MOUNTS } from '../../spec/index.js';
import type { ServerContext } from '../context.js';

const DS = `${MOUNTS.dtableServer}api/v1/dtables/:base_uuid`;

interface Zombie {
  methods: HTTPMethods[];
  urls: string[];
  answer: (params: Record<string, string>) => unknown;
}

/** The removed invite-link and external-link base-token calls: a read-only base token. */
const baseToken = (params: Record<string, string>) => ({
  access_token: randomBytes(20).toString('hex'),
  dtable_uuid: params.base_uuid ?? '',
  permission: 'r',
});

const ZOMBIES: Record<string, Zombie[]> = {
  // A stub left in place of the removed external-link call: any token gets a base token.
  'GONE-1': [{ methods: ['GET'], urls: ['/api/v2.1/external-link-tokens/:token/access-token/'], answer: baseToken }],
  'GONE-4': [{ methods: ['GET'], urls: ['/api/v2.1/dtable/share-link-access-token/'], answer: baseToken }],
  'GONE-5': [
    {
      methods: ['POST'],
      urls: [`${DS}/import-csv/`, `${DS}/append-csv/`],
      answer: () => ({ success: true, inserted_row_count: 0 }),
    },
  ],
  'GONE-6': [{ methods: ['POST', 'PUT'], urls: [`${DS}/comments/`], answer: () => ({ success: true }) }],
  'GONE-7': [
    {
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      urls: ['/api/v2.1/collection-tables/', '/api/v2.1/collection-tables/*'],
      answer: () => ({ collection_tables: [] }),
    },
  ],
  // Both removed ways to obtain a base token (GONE-8 = the union of GONE-4 and GONE-1).
  'GONE-8': [
    { methods: ['GET'], urls: ['/api/v2.1/dtable/share-link-access-token/'], answer: baseToken },
    { methods: ['GET'], urls: ['/api/v2.1/external-link-tokens/:token/access-token/'], answer: baseToken },
  ],
};

export const ZOMBIE_CLAUSES = Object.keys(ZOMBIES);

/** Method and path pattern (fastify syntax) of each route a `zombie:<clause>` fault adds. */
export function zombieRoutes(clause: string): { method: string; url: string }[] {
  return (ZOMBIES[clause] ?? []).flatMap((z) => z.urls.flatMap((url) => z.methods.map((method) => ({ method, url }))));
}

export function registerZombies(app: FastifyInstance, ctx: ServerContext): void {
  const seen = new Set<string>();
  for (const [clause, zombies] of Object.entries(ZOMBIES)) {
    if (!ctx.faults.has(`zombie:${clause}`)) continue;
    for (const z of zombies) {
      for (const url of z.urls) {
        for (const method of z.methods) {
          const key = `${method} ${url}`;
          if (seen.has(key)) continue; // two zombie faults may share a path
          seen.add(key);
          app.route({ method, url, handler: async (req) => z.answer(req.params as Record<string, string>) });
        }
      }
    }
  }
}
