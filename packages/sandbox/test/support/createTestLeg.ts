/**
 * TEST DOUBLE. An in-memory ChainLeg used only by the sandbox core's own tests (transitions, errors, durability,
 * concurrency). It keeps honest books — balances, an escrow per intent, the resolver's inventory — and refuses what a
 * chain would refuse (bad signature, short balance, wrong secret, double spend), but it is no chain engine:
 * users are ed25519 keys and an address is `0x` + the 32-byte public key in hex on every network.
 * With a `dataDir` its books are written atomically to disk after every change, so it survives SIGKILL.
 */
import { verify } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LegFactory } from "../../src/index.js";
import {
  type ChainLeg,
  type Json,
  type LegContext,
  type LegIntent,
  LegRejection,
  type LegToken,
  type SubmittedApproval,
} from "../../src/legs/types.js";
import { approvalMessage, publicKeyOf, sha256, TEST_ESCROW } from "./testWallet.js";

export { createTestWallet, signTestApproval, type TestWallet } from "./testWallet.js";

/** Behaviour switches of the test leg. */
export interface TestLegOptions {
  /** The resolver's starting inventory of every token, in lots. Default 10^30. */
  inventoryLots?: bigint;
  /** Sleep this long inside `deliver`, after the transfer is booked and saved (a crash window for durability tests). */
  deliverDelayMs?: number;
  /** Sleep this long inside `deposit`, after the deposit is booked and saved. */
  depositDelayMs?: number;
  /** Called with every leg created (tests read books and call counts through it). */
  onCreate?: (leg: TestLeg) => void;
}

/** The test leg, with its books open for assertions. */
export interface TestLeg extends ChainLeg {
  readonly networkId: number;
  /** How many times each method was called. */
  readonly calls: Record<string, number>;
  /** Total supply of a token (minted by the faucet and genesis): constant across swaps when no one double-spends. */
  supply(token: string): bigint;
  /** Escrow state of an intent. */
  escrow(intentId: string): { state: "locked" | "claimed" | "refunded"; amount: bigint } | undefined;
  /** The resolver's address on this network. */
  readonly resolverAddress: string;
  /** Make the next call of `method` do its work and save it, then throw (a crash before the caller sees the result). */
  crashAfterNext(method: "deposit" | "deliver" | "claim" | "refund"): void;
  /** Make the next `claim` fail with an engine-style error that quotes its arguments, secret included. */
  failNextClaimQuotingSecret(): void;
  /** Secrets this leg was given by `claim` (hex), for tests that check the secret never leaks elsewhere. */
  readonly claimedSecrets: string[];
}

interface Books {
  balances: Record<string, Record<string, string>>;
  escrows: Record<
    string,
    { state: "locked" | "claimed" | "refunded"; amount: string; owner: string; token: string; tx: string }
  >;
  deliveries: Record<string, string>;
  claims: Record<string, string>;
  refunds: Record<string, string>;
  txCount: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tokensFor(ctx: LegContext): LegToken[] {
  const id = ctx.network.id;
  const addr = (symbol: string) =>
    `0x${sha256(`test-token:${id}:${symbol}`).subarray(0, 20).toString("hex")}`;
  const icon = (symbol: string) => `https://sandbox.swapintent.invalid/icons/${symbol.toLowerCase()}.svg`;
  const token = (
    symbol: string,
    name: string,
    decimals: number,
    contractAddress: string,
    wraps: string | null = null,
  ) => ({
    symbol,
    name,
    decimals,
    contractAddress,
    wrappedTokenAddress: wraps,
    iconUrl: icon(symbol),
  });
  switch (ctx.network.type) {
    case "EVM":
      return [
        token("ETH", "Ether", 18, "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", addr("WETH")),
        token("WETH", "Wrapped Ether", 18, addr("WETH")),
        token("USDC", "USD Coin", 6, addr("USDC")),
        token("USDT", "Tether USD", 6, addr("USDT")),
      ];
    case "TRON":
      return [
        token("TRX", "Tron", 6, "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb", addr("WTRX")),
        token("WTRX", "Wrapped TRX", 6, addr("WTRX")),
        token("USDT", "Tether USD", 6, addr("USDT")),
      ];
    case "BITCOIN":
      return [token("BTC", "Bitcoin", 8, "btc")];
    case "SOLANA":
      return [
        token(
          "SOL",
          "Solana",
          9,
          "11111111111111111111111111111111",
          "So11111111111111111111111111111111111111112",
        ),
        token("wSOL", "Wrapped SOL", 9, "So11111111111111111111111111111111111111112"),
        token("USDC", "USD Coin", 6, `Usdc${id}TestMint1111111111111111111111111`),
      ];
  }
}

/**
 * Create a factory of test legs (TEST DOUBLE; see the file's header). Pass it as `startSandbox({ legs })`.
 */
export function createTestLegFactory(options: TestLegOptions = {}): LegFactory {
  return (ctx) => {
    const leg = createTestLeg(ctx, options);
    options.onCreate?.(leg);
    return leg;
  };
}

function createTestLeg(ctx: LegContext, options: TestLegOptions): TestLeg {
  const networkId = ctx.network.id;
  const tokens = tokensFor(ctx);
  const resolverAddress = `0x${sha256(Buffer.concat([Buffer.from(ctx.seed), Buffer.from("resolver")])).toString("hex")}`;
  const file = ctx.dataDir === undefined ? undefined : join(ctx.dataDir, "test-leg.json");
  const calls: Record<string, number> = {};
  let books: Books = { balances: {}, escrows: {}, deliveries: {}, claims: {}, refunds: {}, txCount: 0 };
  const mechanism =
    ctx.network.type === "BITCOIN" ? "htlc" : ctx.network.type === "SOLANA" ? "cosign" : ("permit2" as const);

  const crashes = new Set<string>();
  let quoteSecretOnce = false;
  const claimedSecrets: string[] = [];
  const maybeCrash = (method: string) => {
    if (crashes.delete(method)) throw new Error(`simulated crash after ${method}`);
  };
  const count = (name: string) => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const save = () => {
    if (!file) return;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(books));
    renameSync(tmp, file);
  };
  const tokenOf = (address: string) => {
    const found = tokens.find((t) => t.contractAddress.toLowerCase() === address.toLowerCase());
    if (!found) throw new LegRejection("UNKNOWN_TOKEN", `no token ${address} on test network ${networkId}`);
    return found.contractAddress;
  };
  const balance = (owner: string, token: string) =>
    BigInt(books.balances[owner.toLowerCase()]?.[token] ?? "0");
  const credit = (owner: string, token: string, delta: bigint) => {
    const key = owner.toLowerCase();
    const next = balance(key, token) + delta;
    if (next < 0n) throw new LegRejection("INSUFFICIENT_BALANCE", "the balance is too low");
    books.balances[key] = { ...books.balances[key], [token]: next.toString() };
  };
  const newTx = (what: string) => {
    books.txCount++;
    return `0x${sha256(`${networkId}:${what}:${books.txCount}`).toString("hex")}`;
  };
  const isAddress = (address: string) => /^0x[0-9a-fA-F]{64}$/.test(address);
  const readData = (legData: Json) => (legData ?? {}) as { message?: string; signature?: string };

  const checkSignature = (intent: LegIntent, approval: SubmittedApproval): string => {
    const message = approvalMessage(networkId, intent);
    let signature: Buffer;
    const data = approval.signedData;
    if (approval.type === "permit2" && typeof data === "string" && /^0x[0-9a-f]{128}$/i.test(data))
      signature = Buffer.from(data.slice(2), "hex");
    else if (approval.type === "psbt" && typeof data === "string") signature = Buffer.from(data, "base64");
    else if (approval.type === "cosign" && data && typeof data === "object" && !Array.isArray(data)) {
      const { transaction, user_address } = data as Record<string, unknown>;
      if (user_address !== intent.userSourceAddress)
        throw new LegRejection("USER_MISMATCH", "user_address is not the intent's source address");
      signature = Buffer.from(String(transaction), "hex");
    } else
      throw new LegRejection("SIGNATURE_MALFORMED", `signed_data has the wrong shape for ${approval.type}`);
    if (signature.length !== 64 || !verify(null, message, publicKeyOf(intent.userSourceAddress), signature))
      throw new LegRejection("SIGNATURE_INVALID", "the signature does not verify for the intent");
    return signature.toString("hex");
  };

  const leg: TestLeg = {
    networkId,
    calls,
    resolverAddress,
    type: ctx.network.type,
    approvalMechanism: mechanism,
    async start() {
      count("start");
      if (file) {
        mkdirSync(ctx.dataDir!, { recursive: true });
        try {
          books = JSON.parse(readFileSync(file, "utf8")) as Books;
          return;
        } catch {
          // first start: genesis below
        }
      }
      for (const t of tokens) credit(resolverAddress, t.contractAddress, options.inventoryLots ?? 10n ** 30n);
      save();
    },
    async stop() {
      count("stop");
    },
    tokens: () => tokens.map((t) => ({ ...t })),
    info: () => ({
      engine: "test-leg",
      network_id: networkId,
      resolver: resolverAddress,
      escrow: `0x${"e".repeat(64)}`,
    }),
    isValidAddress: isAddress,
    publicKeyMatchesAddress(address, publicKeyHex) {
      if (ctx.network.type === "EVM" || ctx.network.type === "TRON") return true;
      return publicKeyHex !== null && `0x${publicKeyHex.toLowerCase()}` === address.toLowerCase();
    },
    async buildApproval(intent) {
      count("buildApproval");
      const message = approvalMessage(networkId, intent).toString("hex");
      const paramsToSign: Json =
        mechanism === "permit2"
          ? {
              escrow_contract_address: TEST_ESCROW,
              permit2_contract_address: `0x${"2".repeat(64)}`,
              resolver_deposit_address: resolverAddress,
              nonce: books.txCount + 1,
              additional_data: {
                domain: { name: "TestLeg", chainId: 1_000_000 + networkId },
                types: { TestWitness: [{ name: "message", type: "bytes32" }] },
                witness: { message: `0x${message}` },
                secretHash: intent.secretHash,
                witness_type_string: "TestWitness witness)TestWitness(bytes32 message)",
                witness_hash: `0x${message}`,
              },
            }
          : mechanism === "htlc"
            ? { psbt: Buffer.from(message, "hex").toString("base64"), inputs: [0] }
            : { transaction: message };
      return { paramsToSign, legData: { message }, proxyAddress: TEST_ESCROW };
    },
    async verifyApproval(intent, legData, approval) {
      count("verifyApproval");
      const signature = checkSignature(intent, approval);
      if (balance(intent.userSourceAddress, tokenOf(intent.sourceToken)) < intent.sourceAmountLots)
        throw new LegRejection("INSUFFICIENT_BALANCE", "the user's balance is below the source amount");
      return { legData: { ...readData(legData), signature } };
    },
    async deposit(intent, legData) {
      count("deposit");
      const existing = books.escrows[intent.intentId];
      if (existing) return { txHash: existing.tx, legData };
      if (!readData(legData).signature) throw new LegRejection("APPROVAL_MISSING", "no verified approval");
      const token = tokenOf(intent.sourceToken);
      credit(intent.userSourceAddress, token, -intent.sourceAmountLots);
      const tx = newTx(`deposit:${intent.intentId}`);
      books.escrows[intent.intentId] = {
        state: "locked",
        amount: intent.sourceAmountLots.toString(),
        owner: intent.refundAddress,
        token,
        tx,
      };
      save();
      if (options.depositDelayMs) await sleep(options.depositDelayMs);
      maybeCrash("deposit");
      return { txHash: tx, legData };
    },
    async claim(intent, _legData, secret) {
      count("claim");
      claimedSecrets.push(Buffer.from(secret).toString("hex"));
      if (quoteSecretOnce) {
        quoteSecretOnce = false;
        throw new Error(
          `execution reverted: claim(${intent.intentId}, 0x${Buffer.from(secret).toString("hex").toUpperCase()})`,
        );
      }
      const done = books.claims[intent.intentId];
      if (done) return { txHash: done };
      const escrow = books.escrows[intent.intentId];
      if (escrow?.state !== "locked")
        throw new LegRejection("NOT_LOCKED", "the escrow holds nothing to claim");
      if (`0x${sha256(secret).toString("hex")}` !== intent.secretHash)
        throw new LegRejection("SECRET_MISMATCH", "sha256(secret) is not the secret hash");
      credit(resolverAddress, escrow.token, BigInt(escrow.amount));
      escrow.state = "claimed";
      const tx = newTx(`claim:${intent.intentId}`);
      books.claims[intent.intentId] = tx;
      save();
      maybeCrash("claim");
      return { txHash: tx };
    },
    async refund(intent) {
      count("refund");
      const done = books.refunds[intent.intentId];
      if (done) return { txHash: done };
      const escrow = books.escrows[intent.intentId];
      if (escrow?.state !== "locked")
        throw new LegRejection("NOT_LOCKED", "the escrow holds nothing to refund");
      credit(escrow.owner, escrow.token, BigInt(escrow.amount));
      escrow.state = "refunded";
      const tx = newTx(`refund:${intent.intentId}`);
      books.refunds[intent.intentId] = tx;
      save();
      maybeCrash("refund");
      return { txHash: tx };
    },
    async deliver(request) {
      count("deliver");
      const done = books.deliveries[request.intentId];
      if (done) return { txHash: done };
      const token = tokenOf(request.token);
      if (balance(resolverAddress, token) < request.amountLots)
        throw new LegRejection("INSUFFICIENT_INVENTORY", "the resolver cannot pay this amount");
      credit(resolverAddress, token, -request.amountLots);
      credit(request.recipient, token, request.amountLots);
      const tx = newTx(`deliver:${request.intentId}`);
      books.deliveries[request.intentId] = tx;
      save();
      if (options.deliverDelayMs) await sleep(options.deliverDelayMs);
      maybeCrash("deliver");
      return { txHash: tx };
    },
    async inventory(token) {
      return balance(resolverAddress, tokenOf(token));
    },
    async faucet(request) {
      count("faucet");
      credit(request.address, tokenOf(request.token), request.amountLots);
      const tx = newTx(`faucet:${request.address}`);
      save();
      return { txHash: tx };
    },
    async balanceOf(address, token) {
      return balance(address, tokenOf(token));
    },
    supply(token) {
      const t = tokenOf(token);
      let total = 0n;
      for (const owner of Object.values(books.balances)) total += BigInt(owner[t] ?? "0");
      for (const e of Object.values(books.escrows))
        if (e.token === t && e.state === "locked") total += BigInt(e.amount);
      return total;
    },
    claimedSecrets,
    failNextClaimQuotingSecret() {
      quoteSecretOnce = true;
    },
    crashAfterNext(method) {
      crashes.add(method);
    },
    escrow(intentId) {
      const e = books.escrows[intentId];
      return e ? { state: e.state, amount: BigInt(e.amount) } : undefined;
    },
  };
  return leg;
}
