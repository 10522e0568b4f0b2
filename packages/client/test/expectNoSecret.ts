/**
 * Test helper shared by every package's secret-leak tests: every text an error can be printed as, and the forms a
 * secret can take in them. Imported by the signer packages' tests by relative path (test code only).
 */
import { inspect } from "node:util";

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function toBase58(bytes: Uint8Array): string {
  let n = 0n;
  for (const byte of bytes) n = n * 256n + BigInt(byte);
  let text = "";
  while (n > 0n) {
    text = base58Alphabet[Number(n % 58n)] + text;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** A fresh random secret: its bytes and its hex (lowercase, no 0x). */
export function createMarkerSecret(length = 32): { bytes: Uint8Array; hex: string } {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return { bytes, hex: Buffer.from(bytes).toString("hex") };
}

/**
 * The windows of a secret that must never appear: 16-character pieces of its text forms (hex in both cases,
 * base58, base64, base64url, the string itself) and its bytes written as a list of numbers (any 8 in a row).
 */
function secretForms(secret: string | Uint8Array): { texts: string[]; byteRun: string | null } {
  const texts: string[] = [];
  let byteRun: string | null = null;
  if (typeof secret === "string") texts.push(secret);
  else {
    const buffer = Buffer.from(secret);
    const hex = buffer.toString("hex");
    texts.push(
      hex,
      hex.toUpperCase(),
      toBase58(secret),
      buffer.toString("base64"),
      buffer.toString("base64url"),
    );
    byteRun = [...secret.slice(0, 8)].join(",");
  }
  const windows: string[] = [];
  for (const text of texts)
    for (let start = 0; start + 16 <= Math.max(text.length, 16); start += 4)
      windows.push(text.slice(start, start + 16));
  return { texts: windows.filter((w) => w.length >= 8), byteRun };
}

/** Every text `error` (and each error of its `cause` chain) prints as: String, stack, JSON, util.inspect. */
export function errorTexts(error: unknown): string[] {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth++) {
    texts.push(String(current), inspect(current, { depth: 10, showHidden: true }));
    if (typeof current === "object") {
      const object = current as { stack?: unknown; message?: unknown; cause?: unknown };
      texts.push(String(object.stack), String(object.message));
      try {
        texts.push(JSON.stringify(current) ?? "");
      } catch (jsonError) {
        texts.push(`JSON failed: ${String(jsonError)}`);
      }
      current = object.cause;
    } else current = undefined;
  }
  return texts;
}

/** The first form of a secret found in `texts`, or null. */
export function findSecret(
  texts: readonly string[],
  secrets: readonly (string | Uint8Array)[],
): string | null {
  for (const secret of secrets) {
    const { texts: windows, byteRun } = secretForms(secret);
    for (const text of texts) {
      for (const window of windows) if (text.includes(window)) return window;
      if (byteRun !== null) {
        const numbers = (text.match(/\d+/g) ?? []).join(",");
        if (`,${numbers},`.includes(`,${byteRun},`)) return `bytes ${byteRun}`;
      }
    }
  }
  return null;
}

/** Captures what `console` prints while `run` runs (every method, every argument as util.inspect writes it). */
export async function captureConsole<T>(
  run: () => Promise<T> | T,
): Promise<{ result: T | undefined; error: unknown; lines: string[] }> {
  const lines: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;
  const saved = methods.map((method) => console[method]);
  for (const method of methods)
    console[method] = (...args: unknown[]) => {
      lines.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10 }))).join(" "));
    };
  try {
    return { result: await run(), error: undefined, lines };
  } catch (error) {
    return { result: undefined, error, lines };
  } finally {
    methods.forEach((method, index) => {
      console[method] = saved[index] as (typeof console)[typeof method];
    });
  }
}

/**
 * Runs `run`, which must fail, and returns the error with a description of the first secret form found in any of
 * its texts, its cause chain or the console output (null when none is found).
 */
export async function leakOf(
  run: () => unknown,
  secrets: readonly (string | Uint8Array)[],
): Promise<{ error: unknown; leak: string | null }> {
  const { error, lines } = await captureConsole(run);
  if (error === undefined) throw new Error("expected a refusal");
  const found = findSecret([...errorTexts(error), ...lines], secrets);
  return { error, leak: found };
}
