import { verifyScripts } from "@swapintent/testing/bitcore";
import { crypto, initEccLib, Psbt, Transaction } from "bitcoinjs-lib";
import { ECPairFactory, type ECPairInterface } from "ecpair";
import * as ecc from "tiny-secp256k1";
import type { ChainLeg, Json, LegContext, SubmittedApproval } from "../types.js";
import { LegRejection } from "../types.js";
import { addressOfScript } from "./addressOfScript.js";
import { buildHtlc, LEAF_VERSION, NUMS_KEY_HEX } from "./buildHtlc.js";
import { openUtxoLedger, type Utxo, type UtxoLedger } from "./ledger.js";
import { scriptOfAddress } from "./scriptOfAddress.js";
import { scriptsOfPublicKey } from "./scriptsOfPublicKey.js";
import { serializeWitness } from "./serializeWitness.js";

initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

/** Refund delay of the HTLC's refund leaf, in blocks (BIP-68 block count). */
export const HTLC_CSV_BLOCKS = 144;
/** Fee rate of every transaction the leg builds, satoshis per vbyte. */
export const FEE_RATE_SAT_PER_VBYTE = 2n;
const DUST_LOTS = 330n;
const RESOLVER_GENESIS_UTXOS = 5;
const RESOLVER_GENESIS_LOTS = 200_000_000n;

// Weight units (BIP-141) used to estimate fees before signing.
const TX_OVERHEAD_WU = 42n; // version, locktime, counts (x4) + segwit marker and flag
const P2TR_INPUT_WU = 41n * 4n + 66n;
const P2WPKH_INPUT_WU = 41n * 4n + 108n;
const HTLC_CLAIM_INPUT_WU = 41n * 4n + 1n + 65n + 33n + 71n + 34n; // sig, secret, leaf, control block
const P2TR_OUTPUT_WU = 43n * 4n;
const P2WPKH_OUTPUT_WU = 31n * 4n;

const feeFor = (weight: bigint) => FEE_RATE_SAT_PER_VBYTE * ((weight + 3n) / 4n);
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const fromHex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));
const outputWeight = (script: Uint8Array) => (script.length === 34 ? P2TR_OUTPUT_WU : P2WPKH_OUTPUT_WU);

/** What the leg keeps about a Bitcoin-source intent (stored by the core as `legData`). */
interface HtlcLegData {
  psbt: string;
  inputs: number[];
  prevouts: { txid: string; vout: number; script: string; value: string }[];
  htlc: {
    script: string;
    value: string;
    csvBlocks: number;
    claimLeaf: string;
    claimControlBlock: string;
    refundLeaf: string;
  };
  userPublicKey: string;
  signedTx?: string;
  depositTxid?: string;
}

/** The Bitcoin leg, plus sandbox-only helpers that tests and the user's own refund use. */
export interface BitcoinLeg extends ChainLeg {
  /** Current block height (one block per 10 minutes of the sandbox clock since the leg's genesis). */
  height(): number;
  /**
   * Accept any fully signed transaction spending ledger outputs, like a node's `sendrawtransaction`: every input
   * must be unspent, pass the interpreter, and satisfy its BIP-68 relative lock against the ledger's heights.
   * This is how a user's own refund (the HTLC's refund leaf) reaches the sandbox chain.
   */
  broadcast(txHex: string): Promise<{ txHash: string }>;
  /** The resolver's compressed public key, hex (its x-only half is the HTLC's claim key). */
  resolverPublicKey(): string;
}

/**
 * Create the sandbox's Bitcoin leg: a regtest UTXO ledger (durable in `ctx.dataDir`) whose every spend —
 * the user's deposit, the resolver's claim, deliveries and refunds — must pass bitcore-lib's script
 * interpreter (segwit v0 + taproot flags, every prevout set) and spend unspent ledger outputs.
 *
 * Service-driven refund (`refund`): the HTLC has only a claim leaf (resolver key + secret) and a refund leaf
 * (user key after the CSV delay); the resolver cannot sign the user's leaf, and `ChainLeg.refund` is not given
 * the secret. So the resolver refunds by paying the user `sourceAmountLots` from its own inventory (a real,
 * interpreter-checked transaction to `refundAddress`), and the HTLC is left as it is: the user may still take
 * it through the refund leaf after the delay (`broadcast`), which in this sandbox costs only the resolver.
 */
export function createBitcoinLeg(ctx: LegContext): BitcoinLeg {
  const resolverKey = deriveResolverKey(ctx.seed);
  const resolverXOnly = resolverKey.publicKey.slice(1, 33);
  const resolverScript = scriptsOfPublicKey(resolverKey.publicKey).p2wpkh;
  let ledger: UtxoLedger | undefined;

  const open = (): UtxoLedger => {
    if (!ledger) throw new LegRejection("LEG_NOT_STARTED", "the Bitcoin leg has not been started");
    return ledger;
  };

  const requireBtc = (token: string) => {
    if (token.toLowerCase() !== "btc")
      throw new LegRejection("TOKEN_UNKNOWN", `unknown Bitcoin token ${token}`);
  };

  const requireAddress = (address: string): Uint8Array => {
    const script = scriptOfAddress(address);
    if (!script) {
      throw new LegRejection("ADDRESS_INVALID", "not a regtest P2WPKH (bcrt1q) or P2TR (bcrt1p) address");
    }
    return script;
  };

  /** Check every input of `tx` against the ledger and the interpreter; returns the prevouts it spends. */
  const checkSpend = (tx: Transaction, options: { enforceRelativeLocks: boolean }): Utxo[] => {
    const l = open();
    const prevouts = tx.ins.map((input) => {
      const outpoint = { txid: Buffer.from(input.hash).reverse().toString("hex"), vout: input.index };
      const utxo = l.get(outpoint);
      if (!utxo) {
        throw new LegRejection(
          "UTXO_SPENT",
          `input ${outpoint.txid}:${outpoint.vout} is not an unspent output of the sandbox chain`,
        );
      }
      return utxo;
    });
    const spent = prevouts.reduce((sum, p) => sum + p.value, 0n);
    const paid = tx.outs.reduce((sum, o) => sum + o.value, 0n);
    if (paid > spent) {
      throw new LegRejection(
        "TX_VALUE_INVALID",
        `the outputs (${paid} sat) exceed the inputs (${spent} sat)`,
      );
    }
    if (options.enforceRelativeLocks) {
      assertFinal({ tx, height: l.height(), nowMs: ctx.clock.nowMs() });
      assertRelativeLocks({ tx, prevouts, height: l.height(), nowMs: ctx.clock.nowMs() });
    }
    const errors = verifyScripts({
      txHex: tx.toHex(),
      prevouts: prevouts.map((p) => ({ script: fromHex(p.script), value: p.value })),
    });
    const failed = errors.findIndex((e) => e !== null);
    if (failed >= 0) {
      throw new LegRejection(
        "PSBT_REJECTED",
        `input ${failed} fails the script interpreter: ${errors[failed]}`,
      );
    }
    return prevouts;
  };

  /** Pay `outputs` from the resolver's P2WPKH UTXOs, change to the resolver; idempotent per `purpose`. */
  const payFromResolver = (args: {
    outputs: { script: Uint8Array; value: bigint }[];
    purpose: string;
  }): string => {
    const l = open();
    const done = l.purpose(args.purpose);
    if (done) return done;
    const target = args.outputs.reduce((s, o) => s + o.value, 0n);
    const baseWeight =
      TX_OVERHEAD_WU + args.outputs.reduce((w, o) => w + outputWeight(o.script), 0n) + P2WPKH_OUTPUT_WU;
    const utxos = l
      .utxosOf(hex(resolverScript))
      .sort((a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0));
    const chosen: Utxo[] = [];
    let total = 0n;
    let fee = feeFor(baseWeight);
    for (const u of utxos) {
      if (total >= target + fee) break;
      chosen.push(u);
      total += u.value;
      fee = feeFor(baseWeight + P2WPKH_INPUT_WU * BigInt(chosen.length));
    }
    if (total < target + fee) {
      throw new LegRejection("INSUFFICIENT_INVENTORY", "the resolver does not hold enough BTC");
    }
    const psbt = new Psbt({ network: undefined });
    psbt.setVersion(2);
    for (const u of chosen) {
      psbt.addInput({
        hash: u.txid,
        index: u.vout,
        witnessUtxo: { script: fromHex(u.script), value: u.value },
      });
    }
    for (const o of args.outputs) psbt.addOutput(o);
    const change = total - target - fee;
    if (change >= DUST_LOTS) psbt.addOutput({ script: resolverScript, value: change });
    for (let i = 0; i < chosen.length; i++) psbt.signInput(i, resolverKey);
    psbt.finalizeAllInputs();
    const tx = psbt.extractTransaction();
    checkSpend(tx, { enforceRelativeLocks: true });
    return l.apply(tx, args.purpose);
  };

  const parseLegData = (legData: Json): HtlcLegData => {
    if (
      !legData ||
      typeof legData !== "object" ||
      Array.isArray(legData) ||
      typeof legData.psbt !== "string"
    ) {
      throw new LegRejection("LEG_DATA_INVALID", "the intent carries no Bitcoin deposit data");
    }
    return legData as unknown as HtlcLegData;
  };

  const leg: BitcoinLeg = {
    type: "BITCOIN",
    approvalMechanism: "htlc",

    async start() {
      ledger = openUtxoLedger({ dataDir: ctx.dataDir, nowMs: () => ctx.clock.nowMs() });
      if (!ledger.purpose("genesis")) {
        // Fund the resolver once; an exhausted inventory is not silently refilled on restart.
        for (let i = 0; i < RESOLVER_GENESIS_UTXOS; i++)
          ledger.mint(hex(resolverScript), RESOLVER_GENESIS_LOTS);
        ledger.setPurpose("genesis", "resolver funded");
      }
      ctx.log(`bitcoin leg ready: height ${ledger.height()}, resolver ${addressOfScript(resolverScript)}`);
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

    info: () => ({
      engine: "bitcore-lib interpreter + sandbox UTXO ledger",
      network: "regtest",
      addressPrefix: "bcrt1",
      tokens: { BTC: "btc" },
      height: ledger ? ledger.height() : null,
      blockIntervalSecs: 600,
      resolverPublicKey: hex(resolverKey.publicKey),
      resolverAddress: addressOfScript(resolverScript),
      numsInternalKey: NUMS_KEY_HEX,
      htlcCsvBlocks: HTLC_CSV_BLOCKS,
      feeRateSatPerVbyte: FEE_RATE_SAT_PER_VBYTE.toString(),
    }),

    isValidAddress: (address) => scriptOfAddress(address) !== null,

    publicKeyMatchesAddress(address, publicKeyHex) {
      const script = scriptOfAddress(address);
      if (!script || !publicKeyHex || !/^[0-9a-fA-F]{66}$/.test(publicKeyHex)) return false;
      const publicKey = fromHex(publicKeyHex);
      if (!ecc.isPoint(publicKey)) return false;
      const own = scriptsOfPublicKey(publicKey);
      return hex(script) === hex(own.p2tr) || hex(script) === hex(own.p2wpkh);
    },

    async buildApproval(intent) {
      const l = open();
      requireBtc(intent.sourceToken);
      const userPublicKey = intent.userSourcePublicKey;
      if (!userPublicKey || !leg.publicKeyMatchesAddress(intent.userSourceAddress, userPublicKey)) {
        throw new LegRejection(
          "PUBLIC_KEY_MISMATCH",
          "user_source_public_key does not own user_source_address",
        );
      }
      const publicKey = fromHex(userPublicKey);
      const own = scriptsOfPublicKey(publicKey);
      const changeScript = requireAddress(intent.userSourceAddress);
      const secretHash = fromHex(intent.secretHash.slice(2));
      const htlc = buildHtlc({
        secretHash,
        resolverXOnly,
        userXOnly: publicKey.slice(1, 33),
        csvBlocks: HTLC_CSV_BLOCKS,
      });

      // Coin selection: largest first, over both of the user's scripts, skipping coins another open intent's
      // deposit PSBT already spends (reserved until that intent's deadline). A P2WPKH coin is used only when the
      // ledger holds its previous transaction: the signer refuses a multi-input deposit without a P2TR input
      // unless every input carries `nonWitnessUtxo` (see docs/approvals.md, htlc).
      const candidates = [...l.utxosOf(hex(own.p2tr)), ...l.utxosOf(hex(own.p2wpkh))]
        .filter((u) => {
          const holder = l.reservedFor(u);
          return holder === undefined || holder === intent.intentId;
        })
        .filter((u) => u.script === hex(own.p2tr) || l.rawTx(u.txid) !== undefined)
        .sort((a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0));
      const baseWeight = TX_OVERHEAD_WU + P2TR_OUTPUT_WU + outputWeight(changeScript);
      const chosen: Utxo[] = [];
      let total = 0n;
      let weight = baseWeight;
      for (const u of candidates) {
        if (total >= intent.sourceAmountLots + feeFor(weight)) break;
        chosen.push(u);
        total += u.value;
        weight += u.script === hex(own.p2tr) ? P2TR_INPUT_WU : P2WPKH_INPUT_WU;
      }
      let fee = feeFor(weight);
      if (total < intent.sourceAmountLots + fee) {
        throw new LegRejection(
          "INSUFFICIENT_BALANCE",
          `the user's UTXOs hold ${total} sat; ${intent.sourceAmountLots + fee} sat needed`,
        );
      }
      let change = total - intent.sourceAmountLots - fee;
      if (change < DUST_LOTS) {
        fee += change;
        change = 0n;
      }

      // nLockTime 0 and sequence 0xfffffffd (RBF, BIP-68 disabled): valid now, as the signer requires.
      const psbt = new Psbt();
      psbt.setVersion(2);
      psbt.setLocktime(0);
      for (const u of chosen) {
        const isP2tr = u.script === hex(own.p2tr);
        // Every segwit-v0 input carries its previous transaction (a P2WPKH signature commits only to its own
        // amount); P2TR inputs don't need it (a Taproot signature commits to every input's amount and script).
        const previous = isP2tr ? undefined : l.rawTx(u.txid);
        psbt.addInput({
          hash: u.txid,
          index: u.vout,
          sequence: 0xfffffffd,
          witnessUtxo: { script: fromHex(u.script), value: u.value },
          ...(previous ? { nonWitnessUtxo: previous } : {}),
          ...(isP2tr ? { tapInternalKey: publicKey.slice(1, 33) } : {}),
        });
      }
      psbt.addOutput({
        script: htlc.script,
        value: intent.sourceAmountLots,
        tapInternalKey: fromHex(NUMS_KEY_HEX),
        tapTree: {
          leaves: [
            { depth: 1, leafVersion: LEAF_VERSION, script: htlc.claimLeaf },
            { depth: 1, leafVersion: LEAF_VERSION, script: htlc.refundLeaf },
          ],
        },
      });
      if (change > 0n) psbt.addOutput({ script: changeScript, value: change });

      l.reserve(chosen, intent.intentId, intent.deadlineSecs * 1000);
      const inputs = chosen.map((_, i) => i);
      const legData: HtlcLegData = {
        psbt: psbt.toBase64(),
        inputs,
        prevouts: chosen.map((u) => ({
          txid: u.txid,
          vout: u.vout,
          script: u.script,
          value: u.value.toString(),
        })),
        htlc: {
          script: hex(htlc.script),
          value: intent.sourceAmountLots.toString(),
          csvBlocks: HTLC_CSV_BLOCKS,
          claimLeaf: hex(htlc.claimLeaf),
          claimControlBlock: hex(htlc.claimControlBlock),
          refundLeaf: hex(htlc.refundLeaf),
        },
        userPublicKey,
      };
      return {
        paramsToSign: { psbt: legData.psbt, inputs },
        legData: legData as unknown as Json,
        proxyAddress: addressOfScript(htlc.script),
      };
    },

    async verifyApproval(_intent, legData, approval) {
      const data = parseLegData(legData);
      const tx = extractSignedDeposit({ data, approval });
      checkSpend(tx, { enforceRelativeLocks: true });
      return {
        legData: {
          ...(data as unknown as Record<string, Json>),
          signedTx: tx.toHex(),
          depositTxid: tx.getId(),
        },
      };
    },

    async deposit(intent, legData) {
      const data = parseLegData(legData);
      if (!data.signedTx) throw new LegRejection("APPROVAL_MISSING", "the deposit has not been approved");
      const tx = Transaction.fromHex(data.signedTx);
      const txid = tx.getId();
      const l = open();
      if (!l.hasTx(txid)) {
        checkSpend(tx, { enforceRelativeLocks: true });
        l.apply(tx, `deposit:${intent.intentId}`);
      }
      return { txHash: txid, legData: { ...(data as unknown as Record<string, Json>), depositTxid: txid } };
    },

    async claim(intent, legData, secret) {
      const data = parseLegData(legData);
      const l = open();
      if (!data.depositTxid) throw new LegRejection("DEPOSIT_MISSING", "nothing has been deposited");
      const outpoint = { txid: data.depositTxid, vout: 0 };
      const spent = l.spentBy(outpoint);
      if (spent) {
        if (spent === l.purpose(`claim:${intent.intentId}`)) return { txHash: spent };
        throw new LegRejection(
          "HTLC_SPENT",
          "the HTLC was already spent (the user took it back after the delay)",
        );
      }
      if (hex(crypto.sha256(secret)) !== intent.secretHash.slice(2).toLowerCase()) {
        throw new LegRejection("SECRET_INVALID", "the secret does not hash to the intent's secret_hash");
      }
      const value = BigInt(data.htlc.value);
      const claimLeaf = fromHex(data.htlc.claimLeaf);
      const controlBlock = fromHex(data.htlc.claimControlBlock);
      const fee = feeFor(TX_OVERHEAD_WU + HTLC_CLAIM_INPUT_WU + P2WPKH_OUTPUT_WU);
      const psbt = new Psbt();
      psbt.setVersion(2);
      psbt.addInput({
        hash: data.depositTxid,
        index: 0,
        sequence: 0xfffffffd,
        witnessUtxo: { script: fromHex(data.htlc.script), value },
        tapLeafScript: [{ leafVersion: LEAF_VERSION, script: claimLeaf, controlBlock }],
      });
      psbt.addOutput({ script: resolverScript, value: value - fee });
      psbt.signTaprootInput(0, resolverKey);
      psbt.finalizeTaprootInput(0, undefined, (_i, input) => {
        const sig = input.tapScriptSig?.[0]?.signature;
        if (!sig) throw new Error("the claim was not signed");
        return { finalScriptWitness: serializeWitness([sig, secret, claimLeaf, controlBlock]) };
      });
      const tx = psbt.extractTransaction();
      checkSpend(tx, { enforceRelativeLocks: true });
      return { txHash: l.apply(tx, `claim:${intent.intentId}`) };
    },

    async refund(intent, legData) {
      // See the function's TSDoc: the resolver pays the user back from its own inventory.
      const l = open();
      const done = l.purpose(`refund:${intent.intentId}`);
      if (done) return { txHash: done };
      const data = parseLegData(legData);
      if (!data.depositTxid || !l.hasTx(data.depositTxid)) {
        throw new LegRejection("NOT_DEPOSITED", "nothing is locked for this intent");
      }
      const spent = l.spentBy({ txid: data.depositTxid, vout: 0 });
      if (spent && spent === l.purpose(`claim:${intent.intentId}`)) {
        throw new LegRejection("ALREADY_CLAIMED", "the HTLC was claimed");
      }
      // The user already took the HTLC back through the refund leaf: that transaction is the refund.
      if (spent) return { txHash: spent };
      const script = scriptOfAddress(intent.refundAddress) ?? requireAddress(intent.userSourceAddress);
      const txHash = payFromResolver({
        outputs: [{ script, value: intent.sourceAmountLots }],
        purpose: `refund:${intent.intentId}`,
      });
      return { txHash };
    },

    async deliver(request) {
      requireBtc(request.token);
      const script = requireAddress(request.recipient);
      if (request.amountLots < DUST_LOTS) throw new LegRejection("AMOUNT_TOO_SMALL", "below the dust limit");
      return {
        txHash: payFromResolver({
          outputs: [{ script, value: request.amountLots }],
          purpose: `deliver:${request.intentId}`,
        }),
      };
    },

    async inventory(token) {
      requireBtc(token);
      return open().balanceOf(hex(resolverScript));
    },

    async faucet(request) {
      requireBtc(request.token);
      const script = requireAddress(request.address);
      if (request.amountLots <= 0n) throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
      return { txHash: open().mint(hex(script), request.amountLots) };
    },

    async balanceOf(address, token) {
      requireBtc(token);
      return open().balanceOf(hex(requireAddress(address)));
    },

    height: () => open().height(),

    async broadcast(txHex) {
      let tx: Transaction;
      try {
        tx = Transaction.fromHex(txHex);
      } catch (cause) {
        throw new LegRejection("TX_INVALID", "not a serialized transaction", { cause });
      }
      const l = open();
      if (l.hasTx(tx.getId())) return { txHash: tx.getId() };
      checkSpend(tx, { enforceRelativeLocks: true });
      return { txHash: l.apply(tx) };
    },

    resolverPublicKey: () => hex(resolverKey.publicKey),
  };
  return leg;
}

/** Derive the resolver's key from the sandbox seed (so its address survives a restart). */
function deriveResolverKey(seed: Uint8Array): ECPairInterface {
  let candidate = crypto.sha256(Buffer.concat([Buffer.from("swapintent/bitcoin/resolver"), seed]));
  while (!ecc.isPrivate(candidate)) candidate = crypto.sha256(candidate);
  return ECPair.fromPrivateKey(candidate);
}

/** Turn the submitted approval into the signed deposit transaction, refusing anything but our PSBT, signed. */
function extractSignedDeposit(args: { data: HtlcLegData; approval: SubmittedApproval }): Transaction {
  const { data, approval } = args;
  if (approval.type !== "psbt" || typeof approval.signedData !== "string") {
    throw new LegRejection(
      "APPROVAL_INVALID",
      "a Bitcoin approval is {type: psbt, signed_data: <base64 PSBT>}",
    );
  }
  let psbt: Psbt;
  try {
    psbt = Psbt.fromBase64(approval.signedData);
  } catch (cause) {
    throw new LegRejection("PSBT_REJECTED", "signed_data is not a base64 PSBT", { cause });
  }
  const expected = Psbt.fromBase64(data.psbt).data.globalMap.unsignedTx.toBuffer();
  if (hex(psbt.data.globalMap.unsignedTx.toBuffer()) !== hex(expected)) {
    throw new LegRejection("PSBT_REJECTED", "the signed PSBT is not the transaction the sandbox built");
  }
  for (const index of data.inputs) {
    const input = psbt.data.inputs[index]!;
    if (input.finalScriptWitness) continue;
    let valid = false;
    try {
      valid = psbt.validateSignaturesOfInput(index, (pubkey, hash, signature) =>
        pubkey.length === 32
          ? ecc.verifySchnorr(hash, pubkey, signature)
          : ecc.verify(hash, pubkey, signature),
      );
    } catch {
      valid = false;
    }
    if (!valid) throw new LegRejection("PSBT_REJECTED", `input ${index} carries no valid signature`);
    psbt.finalizeInput(index);
  }
  try {
    return psbt.extractTransaction(true);
  } catch (cause) {
    throw new LegRejection("PSBT_REJECTED", "the PSBT cannot be finalized into a transaction", { cause });
  }
}

/** nLockTime: final when the next block's height is above the lock height (or the clock past the lock time), or every input opts out. */
function assertFinal(args: { tx: Transaction; height: number; nowMs: number }): void {
  const { tx } = args;
  if (tx.locktime === 0 || tx.ins.every((input) => input.sequence === 0xffffffff)) return;
  const passed = tx.locktime < 500_000_000 ? tx.locktime <= args.height : tx.locktime * 1000 <= args.nowMs;
  if (!passed) throw new LegRejection("TX_NOT_FINAL", `the transaction is locked until ${tx.locktime}`);
}

/** BIP-68: every input of a version-2 transaction waits its relative lock against the ledger's heights. */
function assertRelativeLocks(args: {
  tx: Transaction;
  prevouts: Utxo[];
  height: number;
  nowMs: number;
}): void {
  if (args.tx.version < 2) return;
  args.tx.ins.forEach((input, i) => {
    const sequence = input.sequence;
    if (sequence & 0x80000000) return; // relative lock disabled
    const prev = args.prevouts[i]!;
    const value = sequence & 0xffff;
    if (sequence & 0x00400000) {
      const waitedMs = args.nowMs - prev.timeMs;
      if (waitedMs < value * 512_000) {
        throw new LegRejection("TX_NOT_FINAL", `input ${i} is time-locked (BIP-68) for longer`);
      }
    } else if (args.height - prev.height < value) {
      throw new LegRejection(
        "TX_NOT_FINAL",
        `input ${i} is locked for ${value} blocks (BIP-68); ${args.height - prev.height} have passed`,
      );
    }
  });
}
