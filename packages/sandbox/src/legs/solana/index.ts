import { createHash, createPublicKey, verify as verifyEd25519 } from "node:crypto";
import {
  type Address,
  address,
  createNoopSigner,
  getAddressDecoder,
  getAddressEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  isAddress,
  lamports,
  partiallySignTransaction,
  type Transaction,
} from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getSyncNativeInstruction,
  getTokenDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { FailedTransactionMetadata } from "litesvm";
import type { ChainLeg, Json, LegContext, LegIntent, LegToken, SubmittedApproval } from "../types.js";
import { LegRejection } from "../types.js";
import { deriveKeys, type SolanaLegKeys } from "./deriveKeys.js";
import { SolanaEngine } from "./engine.js";

/** The `contract_address` of native SOL in the catalogue (the System Program id); it wraps to wSOL. */
export const NATIVE_SOL_ADDRESS = "11111111111111111111111111111111";
/** The wrapped SOL mint (litesvm's native mint, the real address). */
export const WRAPPED_SOL_MINT = address("So11111111111111111111111111111111111111112");
/** The Memo program (v2). */
export const MEMO_PROGRAM_ADDRESS = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/** Lamports the resolver starts with (100,000 SOL) and keeps out of its inventory for fees and rent. */
const RESOLVER_AIRDROP = 100_000_000_000_000n;
const FEE_RESERVE = 10_000_000_000n;
/** Initial inventory of the resolver: 10,000,000 USDC and 10,000 wSOL. */
const USDC_INVENTORY = 10_000_000_000_000n;
const WSOL_INVENTORY = 10_000_000_000_000n;
const USDC_DECIMALS = 6;
const SOL_DECIMALS = 9;

type ResolvedToken = { kind: "native" } | { kind: "spl"; mint: Address; decimals: number };

/** What the leg stores with an intent (plain JSON; amounts as decimal strings). */
interface CosignLegData {
  /** Hex of the message bytes the user must sign, exactly as built. */
  message: string;
  blockhash: string;
  mint: string;
  decimals: number;
  amountLots: string;
  userAddress: string;
  userTokenAccount: string;
  escrowOwner: string;
  escrowTokenAccount: string;
  /** Hex of the transaction with the user's signature, once verified. */
  signedTransaction?: string;
  depositTx?: string;
}

const memo = (text: string): Instruction => ({
  programAddress: MEMO_PROGRAM_ADDRESS,
  accounts: [],
  data: new TextEncoder().encode(text),
});

const toHex = (bytes: ArrayLike<number>): string => Buffer.from(Uint8Array.from(bytes)).toString("hex");

/**
 * Create the sandbox's Solana leg: litesvm 1.5 in-process with signature verification on, the SPL Token program,
 * a sandbox USDC mint (6 decimals, mint authority the resolver) and the real wrapped SOL mint. The resolver (fee
 * payer and inventory holder) and the escrow owner (`resolver_deposit`) are derived from `ctx.seed`. What users
 * sign is the v0 transaction of docs/approvals.md (cosign); the cosigned transaction must execute on litesvm.
 */
export function createSolanaLeg(ctx: LegContext): ChainLeg {
  let engine: SolanaEngine | undefined;
  let keys: SolanaLegKeys | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const started = (): { engine: SolanaEngine; keys: SolanaLegKeys } => {
    if (engine === undefined || keys === undefined)
      throw new LegRejection("LEG_NOT_STARTED", "the Solana leg is not started");
    return { engine, keys };
  };

  /** Run state-changing work one at a time, then persist. */
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      const result = await work();
      await started().engine.save();
      return result;
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const resolveToken = (token: string): ResolvedToken => {
    const { keys } = started();
    if (token === NATIVE_SOL_ADDRESS || token === "SOL") return { kind: "native" };
    if (token === WRAPPED_SOL_MINT || token === "wSOL")
      return { kind: "spl", mint: WRAPPED_SOL_MINT, decimals: SOL_DECIMALS };
    if (token === keys.usdcMint.address || token === "USDC") {
      return { kind: "spl", mint: keys.usdcMint.address, decimals: USDC_DECIMALS };
    }
    throw new LegRejection("TOKEN_UNKNOWN", `unknown Solana token ${token}`);
  };

  const parseAddress = (value: string, what: string): Address => {
    if (!isAddress(value)) throw new LegRejection("ADDRESS_INVALID", `the ${what} is not a Solana address`);
    return address(value);
  };

  const ataOf = async (owner: Address, mint: Address): Promise<Address> =>
    (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

  const tokenBalance = (account: Address): bigint => {
    const info = started().engine.svm.getAccount(account);
    if (!info.exists || info.programAddress !== TOKEN_PROGRAM_ADDRESS) return 0n;
    return getTokenDecoder().decode(info.data).amount;
  };

  const nextMemo = (label: string): Instruction => {
    const { engine } = started();
    engine.records.sequence += 1;
    return memo(`swapintent:${label}:${engine.records.sequence}`);
  };

  const intentRecord = (intentId: string) => {
    const { engine } = started();
    engine.records.intents[intentId] ??= {};
    return engine.records.intents[intentId]!;
  };

  /** Send `amount` of `token` from the resolver to `recipient` (creating the recipient's token account). */
  const pay = async (
    token: ResolvedToken,
    recipient: Address,
    amount: bigint,
    label: string,
  ): Promise<string> => {
    const { engine, keys } = started();
    const resolver = keys.resolver;
    if (token.kind === "native") {
      return engine.run(resolver, [
        getTransferSolInstruction({ source: resolver, destination: recipient, amount }),
        nextMemo(label),
      ]);
    }
    const from = await ataOf(resolver.address, token.mint);
    const to = await ataOf(recipient, token.mint);
    return engine.run(resolver, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: resolver,
        ata: to,
        owner: recipient,
        mint: token.mint,
      }),
      getTransferCheckedInstruction({
        source: from,
        mint: token.mint,
        destination: to,
        authority: resolver,
        amount,
        decimals: token.decimals,
      }),
      nextMemo(label),
    ]);
  };

  /** A fresh chain: the USDC mint, the resolver's funded inventory accounts. */
  const initialize = async (): Promise<void> => {
    const { engine, keys } = started();
    const { resolver, usdcMint } = keys;
    const airdrop = engine.svm.airdrop(resolver.address, lamports(RESOLVER_AIRDROP));
    if (airdrop === null || airdrop instanceof FailedTransactionMetadata) {
      throw new Error(`litesvm airdrop to the resolver failed: ${String(airdrop)}`);
    }
    const space = BigInt(getMintSize());
    const usdcInventory = await ataOf(resolver.address, usdcMint.address);
    const wsolInventory = await ataOf(resolver.address, WRAPPED_SOL_MINT);
    await engine.run(
      resolver,
      [
        getCreateAccountInstruction({
          payer: resolver,
          newAccount: usdcMint,
          lamports: lamports(engine.svm.minimumBalanceForRentExemption(space)),
          space,
          programAddress: TOKEN_PROGRAM_ADDRESS,
        }),
        getInitializeMint2Instruction({
          mint: usdcMint.address,
          decimals: USDC_DECIMALS,
          mintAuthority: resolver.address,
        }),
        getCreateAssociatedTokenIdempotentInstruction({
          payer: resolver,
          ata: usdcInventory,
          owner: resolver.address,
          mint: usdcMint.address,
        }),
        getMintToInstruction({
          mint: usdcMint.address,
          token: usdcInventory,
          mintAuthority: resolver,
          amount: USDC_INVENTORY,
        }),
        getCreateAssociatedTokenIdempotentInstruction({
          payer: resolver,
          ata: wsolInventory,
          owner: resolver.address,
          mint: WRAPPED_SOL_MINT,
        }),
        getTransferSolInstruction({ source: resolver, destination: wsolInventory, amount: WSOL_INVENTORY }),
        getSyncNativeInstruction({ account: wsolInventory }),
        nextMemo("init"),
      ],
      [usdcMint],
    );
  };

  const readLegData = (legData: Json): CosignLegData => {
    if (
      legData === null ||
      typeof legData !== "object" ||
      Array.isArray(legData) ||
      typeof legData.message !== "string"
    ) {
      throw new LegRejection("LEG_DATA_INVALID", "the intent has no Solana approval data");
    }
    return legData as unknown as CosignLegData;
  };

  const decodeTransaction = (hex: string, code: string): Transaction => {
    if (!/^(0x)?([0-9a-fA-F]{2})+$/.test(hex)) throw new LegRejection(code, "the transaction is not hex");
    try {
      return getTransactionDecoder().decode(new Uint8Array(Buffer.from(hex.replace(/^0x/, ""), "hex")));
    } catch (cause) {
      throw new LegRejection(code, "the transaction could not be decoded", { cause });
    }
  };

  const keyMatchesAddress = (value: string, publicKeyHex: string | null): boolean => {
    if (publicKeyHex === null || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) return false;
    return getAddressDecoder().decode(Buffer.from(publicKeyHex, "hex")) === value;
  };

  const inventoryOf = async (token: string): Promise<bigint> => {
    const { engine, keys } = started();
    const resolved = resolveToken(token);
    if (resolved.kind === "native") {
      const balance = engine.lamports(keys.resolver.address) - FEE_RESERVE;
      return balance > 0n ? balance : 0n;
    }
    return tokenBalance(await ataOf(keys.resolver.address, resolved.mint));
  };

  return {
    type: "SOLANA",
    approvalMechanism: "cosign",

    async start() {
      if (engine !== undefined) return;
      keys = await deriveKeys(ctx.seed);
      const opened = await SolanaEngine.open(ctx.clock, ctx.dataDir);
      engine = opened.engine;
      if (!opened.restored) {
        await initialize();
        await engine.save();
      }
      ctx.log(
        `solana: litesvm ${opened.restored ? "restored" : "started"}; resolver ${keys.resolver.address}, escrow owner ${keys.deposit.address}, USDC ${keys.usdcMint.address}`,
      );
    },

    async stop() {
      if (engine === undefined) return;
      await queue;
      await engine.save();
      engine = undefined;
    },

    tokens(): LegToken[] {
      const { keys } = started();
      return [
        {
          symbol: "SOL",
          name: "Solana",
          decimals: SOL_DECIMALS,
          contractAddress: NATIVE_SOL_ADDRESS,
          wrappedTokenAddress: WRAPPED_SOL_MINT,
          iconUrl: "",
        },
        {
          symbol: "wSOL",
          name: "Wrapped SOL",
          decimals: SOL_DECIMALS,
          contractAddress: WRAPPED_SOL_MINT,
          wrappedTokenAddress: null,
          iconUrl: "",
        },
        {
          symbol: "USDC",
          name: "USD Coin (sandbox)",
          decimals: USDC_DECIMALS,
          contractAddress: keys.usdcMint.address,
          wrappedTokenAddress: null,
          iconUrl: "",
        },
      ];
    },

    info() {
      const { engine, keys } = started();
      return {
        engine: "litesvm",
        engineVersion: "1.5.0",
        signatureVerification: true,
        durable: ctx.dataDir !== undefined,
        addressFormat: "base58",
        resolverAddress: keys.resolver.address,
        feePayer: keys.resolver.address,
        escrowOwner: keys.deposit.address,
        resolverDepositAddress: keys.deposit.address,
        programs: {
          system: NATIVE_SOL_ADDRESS,
          token: TOKEN_PROGRAM_ADDRESS,
          associatedToken: ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
          memo: MEMO_PROGRAM_ADDRESS,
        },
        tokens: { SOL: NATIVE_SOL_ADDRESS, wSOL: WRAPPED_SOL_MINT, USDC: keys.usdcMint.address },
        mints: { USDC: keys.usdcMint.address, wSOL: WRAPPED_SOL_MINT },
        latestBlockhash: engine.svm.latestBlockhash(),
        clockUnixTimestamp: Number(engine.syncClock()),
      };
    },

    isValidAddress(value: string) {
      return typeof value === "string" && isAddress(value);
    },

    publicKeyMatchesAddress: keyMatchesAddress,

    async buildApproval(intent: LegIntent) {
      const { engine, keys } = started();
      const token = resolveToken(intent.sourceToken);
      const spl = token.kind === "native" ? { mint: WRAPPED_SOL_MINT, decimals: SOL_DECIMALS } : token;
      const user = parseAddress(intent.userSourceAddress, "user source address");
      if (intent.userSourcePublicKey !== null && !keyMatchesAddress(user, intent.userSourcePublicKey)) {
        throw new LegRejection(
          "PUBLIC_KEY_MISMATCH",
          "the user's public key does not match the source address",
        );
      }
      if (intent.sourceAmountLots <= 0n)
        throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
      const userTokenAccount = await ataOf(user, spl.mint);
      const escrowTokenAccount = await ataOf(keys.deposit.address, spl.mint);
      engine.syncClock();
      const tx = engine.compile(keys.resolver.address, [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: createNoopSigner(keys.resolver.address),
          ata: escrowTokenAccount,
          owner: keys.deposit.address,
          mint: spl.mint,
        }),
        getTransferCheckedInstruction({
          source: userTokenAccount,
          mint: spl.mint,
          destination: escrowTokenAccount,
          authority: createNoopSigner(user),
          amount: intent.sourceAmountLots,
          decimals: spl.decimals,
        }),
        memo(`swapintent:${intent.intentId}:${intent.secretHash}`),
      ]);
      const legData: CosignLegData = {
        message: toHex(tx.messageBytes as ArrayLike<number>),
        blockhash: engine.svm.latestBlockhash(),
        mint: spl.mint,
        decimals: spl.decimals,
        amountLots: intent.sourceAmountLots.toString(),
        userAddress: user,
        userTokenAccount,
        escrowOwner: keys.deposit.address,
        escrowTokenAccount,
      };
      return {
        paramsToSign: { transaction: toHex(getTransactionEncoder().encode(tx)) },
        legData: legData as unknown as Json,
        proxyAddress: escrowTokenAccount,
      };
    },

    async verifyApproval(intent: LegIntent, legDataJson: Json, approval: SubmittedApproval) {
      const { engine, keys } = started();
      const legData = readLegData(legDataJson);
      if (approval.type !== "cosign")
        throw new LegRejection("APPROVAL_TYPE_MISMATCH", "a Solana intent takes a cosign approval");
      const signed = approval.signedData as {
        transaction?: unknown;
        user_address?: unknown;
        userAddress?: unknown;
      } | null;
      const hex = signed?.transaction;
      const userAddress = signed?.user_address ?? signed?.userAddress;
      if (typeof hex !== "string" || typeof userAddress !== "string") {
        throw new LegRejection("APPROVAL_MALFORMED", "signed_data needs transaction (hex) and user_address");
      }
      if (userAddress !== intent.userSourceAddress || userAddress !== legData.userAddress) {
        throw new LegRejection("USER_MISMATCH", "user_address is not the intent's source address");
      }
      const tx = decodeTransaction(hex, "TRANSACTION_MALFORMED");
      if (toHex(tx.messageBytes as ArrayLike<number>) !== legData.message) {
        throw new LegRejection(
          "TRANSACTION_MODIFIED",
          "the signed transaction's message differs from the one built",
        );
      }
      const signature = tx.signatures[address(userAddress)];
      if (signature === null || signature === undefined) {
        throw new LegRejection("SIGNATURE_MISSING", "the user's signature is missing");
      }
      const spki = Buffer.concat([
        Buffer.from("302a300506032b6570032100", "hex"),
        Buffer.from(getAddressEncoder().encode(address(userAddress))),
      ]);
      const valid = verifyEd25519(
        null,
        Uint8Array.from(tx.messageBytes as ArrayLike<number>),
        createPublicKey({ key: spki, format: "der", type: "spki" }),
        Uint8Array.from(signature as ArrayLike<number>),
      );
      if (!valid) throw new LegRejection("SIGNATURE_INVALID", "the user's signature does not verify");
      const cosigned = await partiallySignTransaction([keys.resolver.keyPair], tx);
      engine.simulate(cosigned, "SIMULATION_FAILED");
      return { legData: { ...legData, signedTransaction: hex.replace(/^0x/, "") } as unknown as Json };
    },

    deposit(intent: LegIntent, legDataJson: Json) {
      return exclusive(async () => {
        const { engine, keys } = started();
        const legData = readLegData(legDataJson);
        if (legData.signedTransaction === undefined)
          throw new LegRejection("APPROVAL_MISSING", "no verified approval");
        // Executed before (a retry): answer with the same transaction, never send it again.
        const done = intentRecord(intent.intentId).deposit;
        if (done !== undefined)
          return { txHash: done, legData: { ...legData, depositTx: done } as unknown as Json };
        const tx = await partiallySignTransaction(
          [keys.resolver.keyPair],
          decodeTransaction(legData.signedTransaction, "TRANSACTION_MALFORMED"),
        );
        const txHash = engine.execute(tx, "DEPOSIT_FAILED");
        intentRecord(intent.intentId).deposit = txHash;
        return { txHash, legData: { ...legData, depositTx: txHash } as unknown as Json };
      });
    },

    claim(intent: LegIntent, legDataJson: Json, secret: Uint8Array) {
      return exclusive(async () => {
        const { engine, keys } = started();
        const legData = readLegData(legDataJson);
        const hash = `0x${createHash("sha256").update(secret).digest("hex")}`;
        if (hash !== intent.secretHash.toLowerCase())
          throw new LegRejection("SECRET_MISMATCH", "the secret does not match the hash");
        const record = intentRecord(intent.intentId);
        if (record.claim !== undefined) return { txHash: record.claim };
        if (record.refund !== undefined)
          throw new LegRejection("ALREADY_REFUNDED", "the escrow was refunded");
        if (record.deposit === undefined)
          throw new LegRejection("NOT_DEPOSITED", "nothing is escrowed for this intent");
        const mint = address(legData.mint);
        const inventory = await ataOf(keys.resolver.address, mint);
        const txHash = await engine.run(
          keys.resolver,
          [
            getCreateAssociatedTokenIdempotentInstruction({
              payer: keys.resolver,
              ata: inventory,
              owner: keys.resolver.address,
              mint,
            }),
            getTransferCheckedInstruction({
              source: address(legData.escrowTokenAccount),
              mint,
              destination: inventory,
              authority: keys.deposit,
              amount: BigInt(legData.amountLots),
              decimals: legData.decimals,
            }),
            memo(`swapintent:claim:${intent.intentId}`),
          ],
          [keys.deposit],
        );
        record.claim = txHash;
        return { txHash };
      });
    },

    refund(intent: LegIntent, legDataJson: Json) {
      return exclusive(async () => {
        const { engine, keys } = started();
        const legData = readLegData(legDataJson);
        const record = intentRecord(intent.intentId);
        if (record.refund !== undefined) return { txHash: record.refund };
        if (record.claim !== undefined) throw new LegRejection("ALREADY_CLAIMED", "the escrow was claimed");
        if (record.deposit === undefined)
          throw new LegRejection("NOT_DEPOSITED", "nothing is escrowed for this intent");
        const mint = address(legData.mint);
        const user = address(legData.userAddress);
        const userAccount = address(legData.userTokenAccount);
        const txHash = await engine.run(
          keys.resolver,
          [
            getCreateAssociatedTokenIdempotentInstruction({
              payer: keys.resolver,
              ata: userAccount,
              owner: user,
              mint,
            }),
            getTransferCheckedInstruction({
              source: address(legData.escrowTokenAccount),
              mint,
              destination: userAccount,
              authority: keys.deposit,
              amount: BigInt(legData.amountLots),
              decimals: legData.decimals,
            }),
            memo(`swapintent:refund:${intent.intentId}`),
          ],
          [keys.deposit],
        );
        record.refund = txHash;
        return { txHash };
      });
    },

    deliver(request) {
      return exclusive(async () => {
        const token = resolveToken(request.token);
        const recipient = parseAddress(request.recipient, "recipient");
        if (request.amountLots <= 0n) throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
        const record = intentRecord(request.intentId);
        if (record.deliver !== undefined) return { txHash: record.deliver };
        if ((await inventoryOf(request.token)) < request.amountLots) {
          throw new LegRejection("INSUFFICIENT_INVENTORY", "the resolver's inventory is too small");
        }
        const txHash = await pay(token, recipient, request.amountLots, `deliver:${request.intentId}`);
        record.deliver = txHash;
        return { txHash };
      });
    },

    inventory: inventoryOf,

    faucet(request) {
      return exclusive(async () => {
        const { engine, keys } = started();
        const token = resolveToken(request.token);
        const recipient = parseAddress(request.address, "address");
        if (request.amountLots <= 0n) throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
        const resolver = keys.resolver;
        if (token.kind === "native") {
          return { txHash: await pay(token, recipient, request.amountLots, "faucet") };
        }
        const account = await ataOf(recipient, token.mint);
        const create = getCreateAssociatedTokenIdempotentInstruction({
          payer: resolver,
          ata: account,
          owner: recipient,
          mint: token.mint,
        });
        const fund =
          token.mint === WRAPPED_SOL_MINT
            ? [
                getTransferSolInstruction({
                  source: resolver,
                  destination: account,
                  amount: request.amountLots,
                }),
                getSyncNativeInstruction({ account }),
              ]
            : [
                getMintToInstruction({
                  mint: token.mint,
                  token: account,
                  mintAuthority: resolver,
                  amount: request.amountLots,
                }),
              ];
        return { txHash: await engine.run(resolver, [create, ...fund, nextMemo("faucet")]) };
      });
    },

    async balanceOf(owner: string, token: string) {
      const { engine } = started();
      const resolved = resolveToken(token);
      const account = parseAddress(owner, "address");
      if (resolved.kind === "native") return engine.lamports(account);
      return tokenBalance(await ataOf(account, resolved.mint));
    },
  };
}
