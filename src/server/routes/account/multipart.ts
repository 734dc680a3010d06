/**
 * Multipart bodies (team logo, CSV/Excel import, custom-folder upload, and any form the real
 * service takes as multipart). @fastify/multipart splits the parts; the hook below reads them
 * all into a plain body, files as `UploadedFile`, so every route reads multipart fields the way
 * it reads form or JSON fields (`/api2/auth-token/` included). Reading the parts here, not with
 * the plugin's attachFieldsToBody, is what lets a body that cannot be read (no boundary, a
 * part cut short, a malformed part header) be refused as a 400 instead of escaping as a 500.
 */
import multipart, { type Multipart } from '@fastify/multipart';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonValueDepth } from '../../../common/json-depth.js';
import { INPUT_LIMITS } from '../../../spec/index.js';
import type { ServerContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { styleOf } from '../../pipeline/refusals.js';

/** Uploads: team logos, CSV/Excel files, custom-folder files. */
const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
/** Bytes of one plain field; busboy would cut a longer one short without a word. */
const MAX_FIELD_BYTES = 1024 * 1024;

export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly mimetype: string,
    readonly data: Buffer,
  ) {}
}

/** The boundary parameter, which busboy needs and cannot take longer than 256 bytes; or why it is unusable. */
function boundaryOf(contentType: string | undefined): { boundary: string } | { problem: string } {
  const m = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2] ?? '';
  if (!boundary) return { problem: 'Content-Type multipart/form-data needs a boundary parameter.' };
  if (boundary.length > INPUT_LIMITS.multipartBoundary)
    return {
      problem: `The multipart boundary is longer than ${INPUT_LIMITS.multipartBoundary} characters (RFC 2046).`,
    };
  return { boundary };
}

/**
 * Whether the body reaches its closing delimiter (`--boundary--`). Busboy drops a part cut short
 * without a word and keeps the whole parts before it, so a truncated form would be taken as
 * a shorter one. Watches the raw stream beside busboy, keeping only a delimiter's length of tail.
 */
function closingDelimiterSeen(raw: Readable, boundary: string): () => boolean {
  const needle = Buffer.from(`--${boundary}--`);
  let tail = Buffer.alloc(0);
  let seen = false;
  const watch = (chunk: Buffer) => {
    const window = Buffer.concat([tail, chunk]);
    if (window.includes(needle)) {
      seen = true;
      raw.off('data', watch);
    } else {
      tail = window.subarray(Math.max(0, window.length - needle.length + 1));
    }
  };
  raw.on('data', watch);
  return () => seen;
}

/** A field's value; a part the plugin parsed as JSON (its own Content-Type said so) is held to the depth limit. */
function fieldValue(req: FastifyRequest, part: Extract<Multipart, { type: 'field' }>): unknown {
  if (part.valueTruncated)
    throw new HttpError(
      413,
      `multipart field ${part.fieldname} is larger than ${MAX_FIELD_BYTES} bytes.`,
      styleOf(req),
    );
  const max = INPUT_LIMITS.jsonDepth;
  if (jsonValueDepth(part.value, max) > max)
    throw new HttpError(400, `multipart field ${part.fieldname} is nested deeper than ${max} levels.`, styleOf(req));
  return part.value;
}

/**
 * What went wrong reading the parts, as a refusal: the plugin's limit errors keep their 413,
 * its other errors and busboy's (plain `Error`s) are a 400. A TypeError or the like is a bug
 * of ours and stays what it is (a logged 500).
 */
function refusal(req: FastifyRequest, e: unknown): unknown {
  const err = e as Error & { statusCode?: number; code?: string };
  if (err instanceof HttpError) return err;
  const status = err.statusCode === 413 ? 413 : 400;
  if (typeof err.code === 'string' && err.code.startsWith('FST_'))
    return new HttpError(status, `multipart/form-data body refused: ${err.message}.`, styleOf(req));
  if (err?.constructor === Error)
    return new HttpError(
      400,
      `multipart/form-data body is malformed: ${err.message.replace(/^Multipart: /, '')}.`,
      styleOf(req),
    );
  return e;
}

export async function registerMultipart(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, fieldSize: MAX_FIELD_BYTES, files: 2, fields: 100, parts: 200 },
  });
  app.addHook('preValidation', async (req) => {
    if (!req.isMultipart()) return;
    const b = boundaryOf(req.headers['content-type']);
    if ('problem' in b) {
      // Mutant multipart-no-boundary-500: the boundary is read without a check; a body without one escapes as a 500.
      if (ctx.faults.has('multipart-no-boundary-500'))
        throw new TypeError("Cannot read properties of undefined (reading 'boundary')");
      throw new HttpError(400, b.problem, styleOf(req));
    }
    const body: Record<string, unknown> = {};
    const add = (name: string, v: unknown) => {
      const had = body[name];
      body[name] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
    };
    const parts = req.parts();
    const first = parts.next(); // the plugin pipes the body into busboy here; the watcher then sees the same chunks
    const closed = closingDelimiterSeen(req.raw, b.boundary);
    try {
      for (let step = await first; !step.done; step = await parts.next()) {
        const part = step.value;
        if (part.type === 'file')
          add(part.fieldname, new UploadedFile(part.filename, part.mimetype, await part.toBuffer()));
        else add(part.fieldname, fieldValue(req, part));
      }
    } catch (e) {
      throw refusal(req, e);
    }
    if (!closed())
      throw new HttpError(
        400,
        'multipart/form-data body is malformed: it ends before its closing boundary (a part cut short).',
        styleOf(req),
      );
    req.body = body;
  });
}
