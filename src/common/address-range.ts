/**
 * A range of source addresses within one /24, `127.0.0.2-127.0.0.9`, expanded. Free of Node's
 * modules: the k6 scripts bundle it (load/lib/target.ts) as the runner uses it (net.ts).
 */
export function expandAddressRange(part: string): string[] | undefined {
  const m = /^(\d+\.\d+\.\d+\.)(\d+)-(\d+\.\d+\.\d+\.)(\d+)$/.exec(part);
  if (!m || m[1] !== m[3] || Number(m[2]) > Number(m[4])) return undefined;
  const out: string[] = [];
  for (let i = Number(m[2]); i <= Number(m[4]); i++) out.push(`${m[1]}${i}`);
  return out;
}
