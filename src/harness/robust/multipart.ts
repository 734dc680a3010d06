/**
 * Broken multipart/form-data bodies: no boundary, a boundary past RFC 2046's 70 characters,
 * parts cut short, a part header that is no header, a JSON part nested past the depth limit, a
 * prototype key, and a well-formed form without the `file` field. Where the family takes no
 * multipart (the gateway), each is a 415; where it does, a 4xx saying what is wrong.
 */
import { INPUT_LIMITS } from '../../spec/index.js';

/** `no-boundary` and `unterminated` are ROBUST-1's named cases; the others are the reference server's own tests. */
type MultipartVariant = 'no-boundary' | 'unterminated' | 'other';
interface MultipartProbe {
  kind: string;
  variant: MultipartVariant;
  what: string;
  contentType: string;
  body: string;
}

const B = 'malformed-probe';
const ct = (boundary = B) => `multipart/form-data; boundary=${boundary}`;
const part = (name: string, value: string, headers = '') =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n${headers}\r\n${value}\r\n`;
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** `field`: a field the row reads, so a form that parses would reach its handler's checks; `x`: its value (a name naming nothing). */
export function multipartProbes(field: string, x = 'x'): MultipartProbe[] {
  const long = 'b'.repeat(500);
  const m = (variant: MultipartVariant, what: string, body: string, contentType = ct()): MultipartProbe => ({
    kind: 'multipart',
    variant,
    what: `multipart ${what}`,
    contentType,
    body,
  });
  return [
    m('no-boundary', 'without a boundary', part(field, x) + `--${B}--\r\n`, 'multipart/form-data'),
    m(
      'other',
      'with a 500-character boundary',
      `--${long}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${x}\r\n--${long}--\r\n`,
      ct(long),
    ),
    m('unterminated', 'cut short in a part header', `--${B}\r\nContent-Disposition: form-data; name="${field}"`),
    m('unterminated', 'cut short in a field (no closing boundary)', part(field, x).replace(/\r\n$/, '')),
    m('unterminated', 'with a whole part, then no closing boundary', part(field, x) + `--${B}\r\n`),
    m(
      'unterminated',
      'cut short in a file',
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a\n`,
    ),
    m('other', 'with a part header that is no header', `--${B}\r\nthis is not a header\r\n\r\n${x}\r\n--${B}--\r\n`),
    m(
      'other',
      `with a JSON part nested ${INPUT_LIMITS.jsonDepth + 1} deep`,
      part(field, nested(INPUT_LIMITS.jsonDepth + 1), 'Content-Type: application/json\r\n') + `--${B}--\r\n`,
    ),
    m('other', 'with a __proto__ field', part('__proto__', x) + `--${B}--\r\n`),
    m('other', 'without the file field', part('note', 'no file here') + `--${B}--\r\n`),
  ];
}
