import { initEccLib, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import type { LegContext } from "../types.js";
import { LegRejection } from "../types.js";
import { addressOfScript } from "./addressOfScript.js";
import { NUMS_KEY_HEX } from "./buildHtlc.js";
import { buildHtlcApproval, HTLC_CSV_BLOCKS } from "./buildHtlcApproval.js";
import { checkSpend } from "./checkSpend.js";
import { claimHtlc } from "./claimHtlc.js";
import { depositHtlc } from "./depositHtlc.js";
import { deriveResolver } from "./deriveResolver.js";
import { DUST_LOTS, FEE_RATE_SAT_PER_VBYTE, fromHex, toHex } from "./fees.js";
import { openUtxoLedger, type UtxoLedger } from "./ledger.js";
import { payFromResolver } from "./payFromResolver.js";
import { refundHtlc } from "./refundHtlc.js";
import { requireRegtestAddress } from "./requireRegtestAddress.js";
import { scriptOfAddress } from "./scriptOfAddress.js";
import { scriptsOfPublicKey } from "./scriptsOfPublicKey.js";
import type { BitcoinLeg, BitcoinResolver, StartedBitcoinLeg } from "./types.js";
import { verifyHtlcApproval } from "./verifyHtlcApproval.js";

/** 21,000,000 BTC in satoshis: the most one faucet call mints (an output value is an int64). */
const MAX_MONEY_SATS = 2_100_000_000_000_000n;

// bitcoinjs-lib's Taproot payments and PSBT signing need a secp256k1 backend before the leg builds anything.
initEccLib(ecc);

const RESOLVER_GENESIS_UTXOS = 5;
const RESOLVER_GENESIS_LOTS = 200_000_000n;

/**
 * Create the sandbox's Bitcoin leg: a regtest UTXO ledger (durable in `ctx.dataDir`) whose every spend —
 * the user's deposit, the resolver's claim, deliveries and refunds — must pass bitcore-lib's script
 * interpreter (segwit v0 + taproot flags, every prevout set) and spend unspent ledger outputs.
 *
 * Each step lives in its own file (approval building and checking, deposit, claim, refund, paying from the
 * resolver, the spend check, the ledger); see `refundHtlc` for how a service-driven refund works.
 */
export function createBitcoinLeg(ctx: LegContext): BitcoinLeg {
  const resolver = deriveResolver(ctx.seed);
  let ledger: UtxoLedger | undefined;
  const started = (): StartedBitcoinLeg => {
    if (!ledger) throw new LegRejection("LEG_NOT_STARTED", "the Bitcoin leg has not been started");
    return { ledger, resolver, ctx };
  };

  const leg: BitcoinLeg = {
    type: "BITCOIN",
    approvalMechanism: "htlc",
    async start() {
      ledger = openResolverLedger({ ctx, resolverScript: resolver.script });
    },
    async stop() {
      ledger = undefined;
    },
    tokens: () => [
      {
        symbol: "BTC",
        name: "Bitcoin",
        decimals: 8,
        contractAddress: "btc",
        wrappedTokenAddress: null,
        iconUrl: "",
      },
    ],
    info: () => getBitcoinLegInfo({ resolver, height: ledger ? ledger.height() : null }),
    isValidAddress: (address) => scriptOfAddress(address) !== null,
    publicKeyMatchesAddress: bitcoinKeyMatchesAddress,
    async buildApproval(intent) {
      const running = started();
      requireBtc(intent.sourceToken);
      const userPublicKey = intent.userSourcePublicKey;
      if (!userPublicKey || !bitcoinKeyMatchesAddress(intent.userSourceAddress, userPublicKey))
        throw new LegRejection(
          "PUBLIC_KEY_MISMATCH",
          "user_source_public_key does not own user_source_address",
        );
      return buildHtlcApproval({ leg: running, intent, userPublicKey });
    },
    async releaseApproval(intent) {
      started().ledger.release(intent.intentId);
    },
    verifyApproval: async (_intent, legData, approval) =>
      verifyHtlcApproval({ leg: started(), legData, approval }),
    deposit: async (intent, legData) => depositHtlc({ leg: started(), intent, legData }),
    claim: async (intent, legData, secret) => claimHtlc({ leg: started(), intent, legData, secret }),
    refund: async (intent, legData) => refundHtlc({ leg: started(), intent, legData }),
    async deliver(request) {
      requireBtc(request.token);
      const script = requireRegtestAddress(request.recipient);
      if (request.amountLots < DUST_LOTS) throw new LegRejection("AMOUNT_TOO_SMALL", "below the dust limit");
      const outputs = [{ script, value: request.amountLots }];
      return { txHash: payFromResolver({ leg: started(), outputs, purpose: `deliver:${request.intentId}` }) };
    },
    async inventory(token) {
      requireBtc(token);
      return started().ledger.balanceOf(toHex(resolver.script));
    },
    async faucet(request) {
      requireBtc(request.token);
      const script = requireRegtestAddress(request.address);
      if (request.amountLots <= 0n) throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
      // An output value is an int64 of satoshis, and no more than 21,000,000 BTC exist.
      if (request.amountLots > MAX_MONEY_SATS)
        throw new LegRejection("AMOUNT_INVALID", "more than 21,000,000 BTC");
      return { txHash: started().ledger.mint(toHex(script), request.amountLots) };
    },
    async balanceOf(address, token) {
      requireBtc(token);
      return started().ledger.balanceOf(toHex(requireRegtestAddress(address)));
    },
    height: () => started().ledger.height(),
    broadcast: async (txHex) => broadcastTransaction({ leg: started(), txHex }),
    resolverPublicKey: () => toHex(resolver.key.publicKey),
  };
  return leg;
}

/** `ChainLeg.info` of the Bitcoin leg (`GET /sandbox/chains`). */
function getBitcoinLegInfo({ resolver, height }: { resolver: BitcoinResolver; height: number | null }) {
  return {
    engine: "bitcore-lib interpreter + sandbox UTXO ledger",
    network: "regtest",
    addressPrefix: "bcrt1",
    tokens: { BTC: "btc" },
    height,
    blockIntervalSecs: 600,
    resolverPublicKey: toHex(resolver.key.publicKey),
    resolverAddress: addressOfScript(resolver.script),
    numsInternalKey: NUMS_KEY_HEX,
    htlcCsvBlocks: HTLC_CSV_BLOCKS,
    feeRateSatPerVbyte: FEE_RATE_SAT_PER_VBYTE.toString(),
  };
}

/** Open the ledger and fund the resolver once (an exhausted inventory is not silently refilled on restart). */
function openResolverLedger({
  ctx,
  resolverScript,
}: {
  ctx: LegContext;
  resolverScript: Uint8Array;
}): UtxoLedger {
  const ledger = openUtxoLedger({ dataDir: ctx.dataDir, nowMs: () => ctx.clock.nowMs() });
  if (!ledger.purpose("genesis")) {
    for (let i = 0; i < RESOLVER_GENESIS_UTXOS; i++)
      ledger.mint(toHex(resolverScript), RESOLVER_GENESIS_LOTS);
    ledger.setPurpose("genesis", "resolver funded");
  }
  ctx.log(`bitcoin leg ready: height ${ledger.height()}, resolver ${addressOfScript(resolverScript)}`);
  return ledger;
}

/** The Bitcoin leg's only token is `btc`; anything else: `TOKEN_UNKNOWN`. */
function requireBtc(token: string): void {
  if (token.toLowerCase() !== "btc")
    throw new LegRejection("TOKEN_UNKNOWN", `unknown Bitcoin token ${token}`);
}

/** Whether a compressed public key (hex) owns a regtest address, by its P2TR (BIP-86) or P2WPKH script. */
function bitcoinKeyMatchesAddress(address: string, publicKeyHex: string | null): boolean {
  const script = scriptOfAddress(address);
  if (!script || !publicKeyHex || !/^[0-9a-fA-F]{66}$/.test(publicKeyHex)) return false;
  const publicKey = fromHex(publicKeyHex);
  if (!ecc.isPoint(publicKey)) return false;
  const own = scriptsOfPublicKey(publicKey);
  return toHex(script) === toHex(own.p2tr) || toHex(script) === toHex(own.p2wpkh);
}

/** `BitcoinLeg.broadcast`: apply any fully signed transaction that passes the spend check (idempotent by txid). */
function broadcastTransaction({ leg, txHex }: { leg: StartedBitcoinLeg; txHex: string }): { txHash: string } {
  let tx: Transaction;
  try {
    tx = Transaction.fromHex(txHex);
  } catch (cause) {
    throw new LegRejection("TX_INVALID", "not a serialized transaction", { cause });
  }
  if (leg.ledger.hasTx(tx.getId())) return { txHash: tx.getId() };
  checkSpend({ leg, tx });
  return { txHash: leg.ledger.apply(tx) };
}
