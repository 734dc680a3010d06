/** Summaries of repeated benchmark rounds. */
export const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
