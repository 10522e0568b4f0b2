/**
 * Writes packages/bitcoin/test/fixtures/sandbox-deposits.json (the `@swapintent/bitcoin` tests' fixture): `htlc` intents whose deposit PSBTs the sandbox's own Bitcoin leg
 * (`packages/sandbox/src/legs/bitcoin`, `buildApproval`) built for the test user key of `packages/bitcoin/test/fixtures.ts`: a P2TR
 * user, a P2WPKH user with two coins, and a P2TR user spending a P2WPKH coin too. The generative tamper test
 * starts from these.
 *
 *   pnpm exec tsx --conditions=swapintent-source packages/sandbox/scripts/captureSandboxDeposits.ts
 *
 * It lives with the sandbox (test support), so the published signer package never imports the service.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crypto, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { createBitcoinLeg } from "../src/legs/bitcoin/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const user = ECPairFactory(ecc).fromPrivateKey(new Uint8Array(32).fill(0x11)); // packages/bitcoin/test/fixtures.ts userKey
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const p2tr = payments.p2tr({ internalPubkey: user.publicKey.slice(1), network: networks.regtest }).address!;
const p2wpkh = payments.p2wpkh({ pubkey: user.publicKey, network: networks.regtest }).address!;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

async function capture(
  name: string,
  source: string,
  coins: { address: string; lots: bigint }[],
  index: number,
) {
  const leg = createBitcoinLeg({
    network: {
      id: 4,
      name: "Sandbox Bitcoin",
      type: "BITCOIN",
      supportsOptimizedSwap: false,
      supportsCustomTokens: false,
      iconUrl: "",
    },
    clock: { nowMs: () => T0 },
    dataDir: undefined,
    seed: new Uint8Array(32).fill(9),
    log: () => {},
  });
  await leg.start();
  for (const coin of coins) await leg.faucet({ address: coin.address, token: "btc", amountLots: coin.lots });
  const secretHash = `0x${hex(crypto.sha256(new Uint8Array(32).fill(0x5e)))}` as const;
  const intent = {
    intentId: `0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c${index.toString().padStart(2, "0")}`,
    sourceToken: "btc",
    sourceAmountLots: 100_000n,
    destChain: 1,
    destToken: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    minDestAmountLots: 1n,
    maxDestAmountLots: 2n,
    userSourceAddress: source,
    userSourcePublicKey: hex(user.publicKey),
    userDestinationAddress: "0x0000000000000000000000000000000000000001",
    refundAddress: p2wpkh,
    secretHash,
    deadlineSecs: Math.floor(T0 / 1000) + 3600,
  };
  const built = await leg.buildApproval(intent as never);
  return {
    name,
    resolverPublicKey: leg.resolverPublicKey(),
    intent: {
      intentId: intent.intentId,
      deadlineSecs: intent.deadlineSecs,
      secretHash,
      approvalMechanism: "htlc",
      paramsToSign: built.paramsToSign,
    },
    quote: { sourceAmountLots: intent.sourceAmountLots.toString() },
  };
}

const deposits = [
  await capture("sandbox: P2TR user", p2tr, [{ address: p2tr, lots: 150_000n }], 1),
  await capture(
    "sandbox: P2WPKH user, two coins",
    p2wpkh,
    [
      { address: p2wpkh, lots: 70_000n },
      { address: p2wpkh, lots: 60_000n },
    ],
    2,
  ),
  await capture(
    "sandbox: P2TR user with a P2WPKH coin",
    p2tr,
    [
      { address: p2tr, lots: 60_000n },
      { address: p2wpkh, lots: 70_000n },
    ],
    3,
  ),
];
writeFileSync(
  join(here, "../../bitcoin/test/fixtures/sandbox-deposits.json"),
  `${JSON.stringify(deposits, null, 2)}\n`,
);
console.log(`wrote ${deposits.length} sandbox deposits`);
