/**
 * Request bodies, read the same way for every route before any handler sees them. JSON must
 * be an object at most INPUT_LIMITS.jsonDepth deep (deeper bodies overflow the stack of
 * whatever walks them later), and UTF-8; an empty JSON body is no body. Forms are read by
 * form.ts, multipart from routes/account/multipart.ts in the scopes that take it; any other type is a
 * 415 (text/plain included: no endpoint takes text). A body that cannot be read is a 400
 * saying why — a client error, never logged.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonTextDepth } from '../../common/json-depth.js';
import { INPUT_LIMITS } from '../../spec/index.js';
import type { ServerContext } from '../context.js';
import { HttpError } from '../errors.js';
import { parseForm, utf8Text } from './form.js';
import { styleOf } from './refusals.js';

type Done = (err: Error | null, body?: unknown) => void;

/** Why a JSON text did not parse; secure-json-parse refuses prototype keys JSON.parse takes. */
function parseFailure(text: string): string {
  try {
    JSON.parse(text);
    return 'a "__proto__" or "constructor": {"prototype"} key is not allowed';
  } catch (e) {
    return (e as Error).message;
  }
}

export function installBodyParsers(app: FastifyInstance, ctx: ServerContext): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (req, raw, done: Done) => {
    const form = parseForm(raw as Buffer);
    if (!form.ok)
      return done(new HttpError(400, `Request body is not valid form data: ${form.why}.`, styleOf(req)), undefined);
    done(null, form.fields);
  });
  // The default parser (secure-json-parse: prototype keys refused) does the parsing itself.
  const parse = app.getDefaultJsonParser('error', 'error') as (req: FastifyRequest, body: string, done: Done) => void;
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, raw, done: Done) => {
    const refuse = (message: string) => done(new HttpError(400, message, styleOf(req)), undefined);
    // Bytes that are no UTF-8 would be read as U+FFFD and the body acted on as some other text.
    const text = utf8Text(raw as Buffer);
    if (text === undefined) return refuse('Request body is not valid UTF-8.');
    // Official clients send DELETE with this Content-Type and no body: that is no body, not bad JSON.
    if (text.length === 0) return done(null, undefined);
    const max = INPUT_LIMITS.jsonDepth;
    if (jsonTextDepth(text, max) > max) {
      if (ctx.faults.has('deep-json-500')) return done(new RangeError('Maximum call stack size exceeded'), undefined); // mutant: the walker that follows the parser overflows, a 500
      return refuse(`Request body is nested deeper than ${max} levels.`);
    }
    parse(req, text, (err, value) => {
      if (err) {
        const why = parseFailure(text);
        if (ctx.faults.has('malformed-json-500')) return done(new SyntaxError(why), undefined); // mutant: a JSON syntax error escapes as a 500
        return refuse(`Request body is not valid JSON: ${why}`);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        return refuse(
          `Request body must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}.`,
        );
      // Mutant wrong-type-500: a table_name that is no string reaches string code (`.trim()`) and escapes as a 500.
      const tableName = (value as Record<string, unknown>).table_name;
      if (
        tableName !== undefined &&
        tableName !== null &&
        typeof tableName !== 'string' &&
        ctx.faults.has('wrong-type-500')
      )
        return done(new TypeError('table_name.trim is not a function'), undefined);
      done(null, value);
    });
  });
}
