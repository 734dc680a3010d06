/**
 * `application/x-www-form-urlencoded` bodies (the account family's forms), read strictly: a
 * body that is not UTF-8, holds raw control characters, a `%` that is no escape, an escape
 * that decodes to no UTF-8, or a prototype key (`__proto__`, `constructor`, `prototype`, also
 * in brackets) is a 400 saying which — as the JSON parser refuses prototype keys. Lenient
 * parsers read such a body as some other form and the handler then acts on it. A key given
 * twice becomes a list, as fast-querystring (the usual fastify parser) reads it.
 */
const PROTOTYPE_KEY = /^(?:__proto__|constructor|prototype)(?:\[|$)|\[(?:__proto__|constructor|prototype)\]/;
const RAW_CONTROL = /[\u0000-\u001f\u007f]/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

type FormResult = { ok: true; fields: Record<string, string | string[]> } | { ok: false; why: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of a body, or undefined where its bytes are no UTF-8. */
export function utf8Text(raw: Buffer): string | undefined {
  try {
    return utf8.decode(raw);
  } catch {
    return undefined;
  }
}

function decodePart(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

export function parseForm(raw: Buffer): FormResult {
  const text = utf8Text(raw);
  if (text === undefined) return { ok: false, why: 'it is not UTF-8' };
  if (RAW_CONTROL.test(text)) return { ok: false, why: 'it holds a control character that is not percent-encoded' };
  if (BAD_ESCAPE.test(text)) return { ok: false, why: 'a "%" is not followed by two hex digits' };
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodePart(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodePart(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined)
      return { ok: false, why: 'a percent-escape decodes to no UTF-8 text' };
    if (PROTOTYPE_KEY.test(key)) return { ok: false, why: `the key ${JSON.stringify(key)} is not allowed` };
    const had = fields[key];
    fields[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return { ok: true, fields: { ...fields } };
}
