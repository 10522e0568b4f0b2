import { isAddress } from "@solana/kit";
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { ChainLeg, Json, LegContext } from "../types.js";
import { LegRejection } from "../types.js";
import { buildCosignApproval } from "./buildCosignApproval.js";
import { MEMO_PROGRAM_ADDRESS, NATIVE_SOL_ADDRESS, WRAPPED_SOL_MINT } from "./constants.js";
import { deliverSolana } from "./deliverSolana.js";
import { depositCosign } from "./depositCosign.js";
import { deriveKeys } from "./deriveKeys.js";
import { SolanaEngine } from "./engine.js";
import { faucetSolana } from "./faucetSolana.js";
import { initializeSolanaChain } from "./initializeSolanaChain.js";
import { claimCosignEscrow, refundCosignEscrow } from "./releaseEscrow.js";
import { getSolanaBalance, getSolanaInventory, listSolanaTokens, solanaKeyMatchesAddress } from "./tokens.js";
import type { StartedSolanaLeg } from "./types.js";
import { verifyCosignApproval } from "./verifyCosignApproval.js";

/**
 * Create the sandbox's Solana leg: litesvm 1.5 in-process with signature verification on, the SPL Token program,
 * a sandbox USDC mint (6 decimals, mint authority the resolver) and the real wrapped SOL mint. The resolver (fee
 * payer and inventory holder) and the escrow owner (`resolver_deposit`) are derived from `ctx.seed`. What users
 * sign is the v0 transaction of apps/docs/pages/reference/approvals.md (cosign); the cosigned transaction must execute on litesvm.
 *
 * Each step lives in its own file (chain set-up, approval building and checking, deposit, claim and refund,
 * delivery, faucet, tokens and balances); this function holds the started engine and runs state changes one at a
 * time, saving the engine's snapshot after each.
 */
export function createSolanaLeg(ctx: LegContext): ChainLeg {
  let leg: StartedSolanaLeg | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const started = (): StartedSolanaLeg => {
    if (leg === undefined) throw new LegRejection("LEG_NOT_STARTED", "the Solana leg is not started");
    return leg;
  };

  /** Run state-changing work one at a time, then persist. */
  const exclusive = <T>(work: (leg: StartedSolanaLeg) => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      const result = await work(started());
      await started().engine.save();
      return result;
    });
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    type: "SOLANA",
    approvalMechanism: "cosign",
    async start() {
      if (leg !== undefined) return;
      leg = await startSolanaEngine(ctx);
    },
    async stop() {
      if (leg === undefined) return;
      await queue;
      await leg.engine.save();
      leg = undefined;
    },
    tokens: () => listSolanaTokens({ leg: started() }),
    info: () => getSolanaLegInfo({ leg: started(), durable: ctx.dataDir !== undefined }),
    isValidAddress: (value) => typeof value === "string" && isAddress(value),
    publicKeyMatchesAddress: solanaKeyMatchesAddress,
    buildApproval: async (intent) => buildCosignApproval({ leg: started(), intent }),
    verifyApproval: async (intent, legData, approval) =>
      verifyCosignApproval({ leg: started(), intent, legData, approval }),
    deposit: (intent, legData) => exclusive((leg) => depositCosign({ leg, intent, legData })),
    claim: (intent, legData, secret) =>
      exclusive((leg) => claimCosignEscrow({ leg, intent, legData, secret })),
    refund: (intent, legData) => exclusive((leg) => refundCosignEscrow({ leg, intent, legData })),
    deliver: (request) => exclusive((leg) => deliverSolana({ leg, request })),
    inventory: async (token) => getSolanaInventory({ leg: started(), token }),
    faucet: (request) => exclusive((leg) => faucetSolana({ leg, request })),
    balanceOf: async (owner, token) => getSolanaBalance({ leg: started(), owner, token }),
  };
}

/** Derive the keys, open litesvm (restored from the data folder, or a fresh chain that is set up and saved). */
async function startSolanaEngine(ctx: LegContext): Promise<StartedSolanaLeg> {
  const keys = await deriveKeys(ctx.seed);
  const opened = await SolanaEngine.open(ctx.clock, ctx.dataDir);
  const leg = { engine: opened.engine, keys };
  if (!opened.restored) {
    await initializeSolanaChain({ leg });
    await leg.engine.save();
  }
  ctx.log(
    `solana: litesvm ${opened.restored ? "restored" : "started"}; resolver ${keys.resolver.address}, escrow owner ${keys.deposit.address}, USDC ${keys.usdcMint.address}`,
  );
  return leg;
}

/** `ChainLeg.info` of the Solana leg (`GET /sandbox/chains`). */
function getSolanaLegInfo({
  leg,
  durable,
}: {
  leg: StartedSolanaLeg;
  durable: boolean;
}): Record<string, Json> {
  const { engine, keys } = leg;
  return {
    engine: "litesvm",
    engineVersion: "1.5.0",
    signatureVerification: true,
    durable,
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
}
