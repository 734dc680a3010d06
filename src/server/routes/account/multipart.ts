/**
 * Multipart bodies (team logo, CSV/Excel import, custom-folder upload, and any form the real
 * service takes as multipart). @fastify/multipart buffers the parts; a hook then flattens the
 * body to plain values, files as `UploadedFile`, so every route reads multipart fields the way
 * it reads form or JSON fields (`/api2/auth-token/` included).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** Uploads: team logos, CSV/Excel files, custom-folder files. */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;

export class UploadedFile {
  constructor(readonly filename: string, readonly mimetype: string, readonly data: Buffer) {}
}

interface Part { type?: string; value?: unknown; filename?: string; mimetype?: string; _buf?: Buffer }
const isPart = (v: unknown): v is Part => !!v && typeof v === 'object' && ((v as Part).type === 'field' || (v as Part).type === 'file');
const flat = (p: Part) => (p.type === 'file' ? new UploadedFile(p.filename ?? '', p.mimetype ?? 'application/octet-stream', p._buf ?? Buffer.alloc(0)) : p.value);

export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { attachFieldsToBody: true, limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 100, parts: 200 } });
  app.addHook('preValidation', async (req) => {
    if (!req.isMultipart() || !req.body || typeof req.body !== 'object') return;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) {
      out[k] = Array.isArray(v) && v.every(isPart) ? v.map(flat) : isPart(v) ? flat(v) : v;
    }
    req.body = out;
  });
}
