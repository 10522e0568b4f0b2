/**
 * The guides' flows, run as a reader would run them against `pnpm sandbox`: each complete example in examples/
 * starts from `GET /sandbox/chains`, funds a fresh wallet through the faucet, and must reach Fulfilled on the
 * sandbox's real engines (anvil with the real Permit2, bitcore's interpreter, litesvm). One sandbox in-process
 * serves them all.
 */

import { startSandbox } from "@swapintent/sandbox";
import { Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { swapOnBitcoin } from "../examples/bitcoin.js";
import { swapOnEvm } from "../examples/evm.js";
import { swapOnSolana } from "../examples/solana.js";
import { swapOnTron } from "../examples/tron.js";

const apiKey = "docs-guides";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    dev: true,
    resolverIntervalMs: 50,
    log: () => {},
  });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("the chain guides reach Fulfilled against the sandbox", () => {
  it("Permit2 on EVM with a viem account (allowance, verify, sign)", async () => {
    expect(await swapOnEvm({ baseUrl: sandbox.url, apiKey })).toBe("Fulfilled");
  });

  it("Tron with a private key through TronWeb (base58 addresses, TIP-712)", async () => {
    expect(await swapOnTron({ baseUrl: sandbox.url, apiKey })).toBe("Fulfilled");
  });

  it("Bitcoin with a key, and the user's own refund signed at deposit time", async () => {
    const { status, refund } = await swapOnBitcoin({ baseUrl: sandbox.url, apiKey });
    expect(status).toBe("Fulfilled");
    const tx = Transaction.fromHex(refund!.txHex);
    // The refund spends the HTLC (output 0 of the deposit) through its CSV-locked leaf.
    expect(tx.ins).toHaveLength(1);
    expect(tx.ins[0]!.index).toBe(0);
    expect(tx.ins[0]!.sequence).toBe(refund!.csvBlocks);
  });

  it("Solana with a web3.js Keypair (the resolver pays the fee)", async () => {
    expect(await swapOnSolana({ baseUrl: sandbox.url, apiKey })).toBe("Fulfilled");
  });
});
