/**
 * How the built-in runner's connections are made, as k6's options say: TLS verification
 * (`insecureSkipTLSVerify`, the CLI's --insecure; the CAs of --ca-file) and name overrides (`hosts`, k6's
 * /etc/hosts-like map). `hostsOnly` resolves nothing but the map: tests pointing a made-up
 * name at loopback then cannot send even a DNS query anywhere else.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export interface NetOptions {
  insecure?: boolean;
  /** The CAs to trust in place of the defaults (the system roots plus --ca-file: src/client/tls.ts). */
  ca?: string[];
  hosts?: Record<string, string>;
  hostsOnly?: boolean;
}

type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: { all?: boolean } | number | undefined, callback: Callback) => void;

/** k6's `hosts` option: names to IP addresses (an address with a port is not supported here). */
export function parseHosts(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object') throw new Error('options.hosts must be an object of name: address');
  const out: Record<string, string> = {};
  for (const [name, ip] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof ip !== 'string' || !isIP(ip))
      throw new Error(`options.hosts["${name}"]: ${JSON.stringify(ip)} is not an IP address`);
    out[name.toLowerCase()] = ip;
  }
  return out;
}

/** A `lookup` for net/tls.connect that answers the map first; undefined when nothing overrides DNS. */
export function lookupFor(net: NetOptions): Lookup | undefined {
  const hosts = net.hosts ?? {};
  if (!net.hostsOnly && Object.keys(hosts).length === 0) return undefined;
  return (hostname, options, callback) => {
    const all = typeof options === 'object' && options?.all === true;
    const ip = hosts[hostname.toLowerCase()];
    if (ip) {
      const family = isIP(ip);
      if (all) callback(null, [{ address: ip, family }]);
      else callback(null, ip, family);
      return;
    }
    if (net.hostsOnly) {
      callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (not in this run's hosts)`), { code: 'ENOTFOUND' }),
        all ? [] : '',
      );
      return;
    }
    dnsLookup(hostname, typeof options === 'object' ? { ...options, all } : { all }, callback as never);
  };
}
