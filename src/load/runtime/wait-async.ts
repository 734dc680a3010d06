/** Atomics.waitAsync: in V8 since Node 16, typed only in TypeScript's ES2024 lib (newer than this project's). */
type WaitAsync = (
  a: Int32Array,
  i: number,
  v: number,
  ms?: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
export const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync.bind(Atomics);
