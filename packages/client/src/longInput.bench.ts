/**
 * What long caller input costs: a run of 50 000 slashes in a base URL, 100 000 spaces inside a header value and
 * 100 000 fractional zeros once met backtracking patterns (4 to 9 s each), and a 100 000-digit number a lookahead per
 * digit (6.9 s). The tests bound the work (only linear patterns read them; grouping consumes what it matches); this
 * measures the time. Run with `pnpm bench` in this package.
 */
import { bench, describe } from "vitest";
import { createSwapIntentClient } from "./client/createSwapIntentClient.js";
import { formatAmount } from "./utils/formatAmount.js";
import { parseLots } from "./utils/parseLots.js";

const zeros = "0".repeat(100_000);
const digits = BigInt(`9${"0".repeat(99_999)}`);
const options = { time: 500 };
const fetch = (async () => new Response("{}")) as typeof globalThis.fetch;

describe("long caller input", () => {
  bench(
    "a client on a base URL with 50 000 inner slashes",
    () => {
      createSwapIntentClient({
        baseUrl: `https://swap.test/${"/".repeat(50_000)}x`,
        apiKey: "sk_bench",
        fetch,
      });
    },
    options,
  );
  bench(
    "a client with 100 000 spaces inside a header value",
    () => {
      createSwapIntentClient({
        baseUrl: "https://swap.test",
        apiKey: "sk_bench",
        fetch,
        headers: { "x-note": `\t a${" ".repeat(100_000)}b \n` },
      });
    },
    options,
  );
  bench(
    "parseLots of 1.5 and 100 000 trailing zeros",
    () => {
      parseLots({ value: `1.5${zeros}`, decimals: 6 });
    },
    options,
  );
  bench(
    "formatAmount of a 100 000-digit number",
    () => {
      formatAmount({ value: digits, decimals: 0, groupSeparator: "_" });
    },
    options,
  );
});
