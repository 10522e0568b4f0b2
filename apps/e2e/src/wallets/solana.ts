import { Keypair } from "@solana/web3.js";
import { formatLots } from "@swapintent/client";
import { signCosignTransaction, verifyCosignTransaction } from "@swapintent/solana";
import { createSignOnlyWalletBase } from "@swapintent/testing/wallet";
import type { Redactor } from "../redact.js";
import { type ChainInfo, type DemoWallet, readFact } from "./types.js";

/** A Solana wallet holding one ed25519 key pair. */
export function createSolanaWallet(params: {
  info: ChainInfo;
  redactor: Redactor;
  /** 64-byte secret key; a fresh key pair when absent. */
  secretKey?: Uint8Array;
}): DemoWallet {
  const keypair = params.secretKey ? Keypair.fromSecretKey(params.secretKey) : Keypair.generate();
  params.redactor.add(keypair.secretKey);
  const address = keypair.publicKey.toBase58();
  const escrow = { owner: readFact(params.info, "escrowOwner") };
  const describe = (
    v: { amountLots: bigint; mint: string; destination: string; programs: string[] },
    decimals: number,
  ) => [
    `Transfer ${formatLots({ value: v.amountLots, decimals })} of mint ${v.mint}`,
    `to the escrow token account ${v.destination} (owner ${escrow.owner})`,
    `Programs called: ${v.programs.length}; the resolver pays the fee`,
  ];
  return {
    ...createSignOnlyWalletBase({
      type: "SOLANA",
      address,
      publicKeyHex: Buffer.from(keypair.publicKey.toBytes()).toString("hex"),
    }),
    async approve({ intent, quote, dryRun }) {
      if (dryRun) {
        const verified = verifyCosignTransaction({ intent, quote, userAddress: address, escrow });
        return { approval: null, summary: describe(verified, quote.sourceAmountDecimals) };
      }
      const verified = verifyCosignTransaction({ intent, quote, userAddress: address, escrow });
      const signed = await signCosignTransaction({ intent, quote, escrow, signer: keypair });
      return { approval: signed.approval, summary: describe(verified, quote.sourceAmountDecimals) };
    },
  };
}
