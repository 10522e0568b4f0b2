/**
 * The work a text function does, as the characters it hands to the scanning primitives: `String#replace`,
 * `String#match`, `String#split`, `RegExp#test` and `atob`, each counting the length of the text it is given. A
 * function that reads its input a bounded number of times counts a bounded multiple of the input's length, on any
 * machine and under any load; a quadratic one counts a multiple that grows with the input.
 */
export function countScans<T>(run: () => T): { result: T; scanned: number } {
  let scanned = 0;
  const restore: Array<() => void> = [];
  const count = <O extends object, K extends keyof O>(
    owner: O,
    key: K,
    length: (self: unknown, args: unknown[]) => number,
  ) => {
    const original = owner[key] as (...args: unknown[]) => unknown;
    owner[key] = function (this: unknown, ...args: unknown[]) {
      scanned += length(this, args);
      return original.apply(this, args);
    } as O[K];
    restore.push(() => {
      owner[key] = original as O[K];
    });
  };
  const own = (self: unknown) => String(self).length;
  count(String.prototype, "replace", own);
  count(String.prototype, "match", own);
  count(String.prototype, "split", own);
  count(RegExp.prototype, "test", (_self, args) => String(args[0]).length);
  count(globalThis, "atob", (_self, args) => String(args[0]).length);
  try {
    return { result: run(), scanned };
  } finally {
    for (const undo of restore) undo();
  }
}
