/** Defines `key` on `target` as an accessor returning `values[i]` on the i-th read (the last one after that). */
export function answerInTurn(target: object, key: string, values: unknown[]): { reads: () => number } {
  let reads = 0;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => values[Math.min(reads++, values.length - 1)],
  });
  return { reads: () => reads };
}
