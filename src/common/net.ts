/**
 * Loopback detection and source-address lists, once for the whole project: the reference
 * server listens on loopback only, per-IP checks bind loopback source addresses, and a run
 * decides what it may do to a target by whether it is on this machine.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { expandAddressRange } from './address-range.js';

/** 127.0.0.0/8, ::1, an IPv4-mapped 127.x.y.z, or the name `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (isIPv6(h)) {
    const mapped = /^(?:0{0,4}:){0,4}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    if (mapped) return mapped[1]!.startsWith('127.');
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
    return !!hex && parseInt(hex[1]!, 16) >> 8 === 127;
  }
  return false;
}

/** Is the URL's host a loopback host? (A malformed URL is not.) */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The loopback source addresses a run on a loopback target uses for per-IP checks by default. */
export const DEFAULT_SOURCE_ADDRESSES = '127.0.0.2-127.0.0.9';

/**
 * `127.0.0.2-127.0.0.9`, a comma list, or a mix → addresses; `none` or empty → [].
 * Only loopback IPv4 addresses: traffic from this harness never leaves the machine by way
 * of a bound source address. A range stays within one /24 and ascends.
 */
export function parseSourceAddresses(spec: string | undefined): string[] {
  if (!spec || spec === 'none') return [];
  const out: string[] = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [from, to, ...extra] = part.split('-');
    for (const a of [from, to])
      if (a !== undefined && !(isIPv4(a) && a.startsWith('127.')))
        throw new Error(`${a}: not a loopback address 127.x.y.z`);
    if (extra.length) throw new Error(`source address range ${part}: one "-" at most`);
    if (to === undefined) {
      out.push(from!);
      continue;
    }
    const range = expandAddressRange(part);
    if (!range) throw new Error(`source address range ${part}: same /24 and ascending`);
    out.push(...range);
  }
  return out;
}
