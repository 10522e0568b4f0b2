/**
 * What a user signs, per approval mechanism (`params_to_sign` of `POST /intents`), and the approval body that
 * carries the signature back: the wire contract of apps/docs/pages/reference/approvals.md, as schemas. The permit2
 * type table is built from the constants the sandbox signs with, so the document cannot drift from them.
 */
import { z } from "zod";
import { NUMS_KEY_HEX } from "../../legs/bitcoin/buildHtlc.js";
import { HTLC_CSV_BLOCKS } from "../../legs/bitcoin/buildHtlcApproval.js";
import {
  PERMIT2_DOMAIN_FIELDS,
  PERMIT2_WITNESS_TYPES,
  SWAP_WITNESS_TYPE_STRING,
} from "../../legs/evm/permit2Types.js";
import { APPROVAL_TYPES } from "./requestSchemas.js";

const bytes32 = z.string().regex(/^0x[0-9a-f]{64}$/);
const uint256Text = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/)
  .meta({ description: "uint256 as decimal text." });
/** An EVM address (checksummed hex) or a Tron address (base58check `T…`): the network's own form. */
const evmOrTronAddress = z
  .string()
  .regex(/^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/)
  .meta({ description: "EVM: 0x hex (EIP-55 checksummed); Tron: base58check `T…`." });
const base64 = z
  .string()
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
  .min(1);
const hex = z.string().regex(/^(0x)?(?:[0-9a-fA-F]{2})+$/);

/** One EIP-712 type's field list, exactly as given. */
const typeFields = (fields: readonly { name: string; type: string }[]) =>
  z.tuple(
    fields.map((f) => z.strictObject({ name: z.literal(f.name), type: z.literal(f.type) })) as unknown as [
      z.ZodType,
      ...z.ZodType[],
    ],
  );

/** permit2 (EVM and Tron): the Permit2 `PermitWitnessTransferFrom` typed data, with the swap witness. */
export const Permit2ParamsSchema = z
  .strictObject({
    escrow_contract_address: evmOrTronAddress.meta({
      description: "The spender: the escrow contract, which calls Permit2 (the message's `spender`).",
    }),
    permit2_contract_address: evmOrTronAddress.meta({
      description: "Permit2; equals `domain.verifyingContract`.",
    }),
    resolver_deposit_address: evmOrTronAddress.meta({ description: "Where the escrow pays on claim." }),
    nonce: z
      .int()
      .min(0)
      .max(2 ** 53 - 1)
      .meta({ description: "Permit2 unordered nonce (the message's `nonce`)." }),
    additional_data: z.strictObject({
      domain: z.strictObject({
        name: z.literal("Permit2"),
        chainId: z
          .int()
          .min(0)
          .meta({ description: "The engine's chain id (Tron: TIP-712 masks it to 32 bits)." }),
        verifyingContract: evmOrTronAddress,
      }),
      types: z.strictObject({
        EIP712Domain: typeFields(PERMIT2_DOMAIN_FIELDS),
        PermitWitnessTransferFrom: typeFields(PERMIT2_WITNESS_TYPES.PermitWitnessTransferFrom),
        TokenPermissions: typeFields(PERMIT2_WITNESS_TYPES.TokenPermissions),
        SwapWitness: typeFields(PERMIT2_WITNESS_TYPES.SwapWitness),
      }),
      witness: z
        .strictObject({
          intentId: bytes32.meta({ description: "The intent UUID's 16 bytes, left-padded with zeros." }),
          secretHash: bytes32.meta({ description: "SHA-256 of the intent's secret (`secret_hash`)." }),
          destChain: uint256Text.meta({ description: "`dest_chain` of the quote, decimal text." }),
          destToken: z.string().meta({ description: "`dest_token` of the quote." }),
          recipient: z.string().meta({ description: "`user_destination_address`." }),
          minDestAmount: uint256Text.meta({ description: "`min_dest_amount_lots`." }),
          maxDestAmount: uint256Text.meta({ description: "`max_dest_amount_lots`." }),
        })
        .meta({ description: "The message's `witness` (a `SwapWitness`)." }),
      secretHash: bytes32,
      witness_type_string: z.literal(SWAP_WITNESS_TYPE_STRING),
      witness_hash: bytes32.meta({ description: "hashStruct(SwapWitness, witness)." }),
    }),
  })
  .meta({
    id: "Permit2Params",
    description:
      "Sign EIP-712 (Tron: TIP-712) `PermitWitnessTransferFrom` with `domain` and `types`; the message, built by the signer, is `{permitted: {token: source_token, amount: source_amount_lots}, spender: escrow_contract_address, nonce, deadline: deadline_secs, witness}`.",
  });

/** htlc (Bitcoin): the deposit PSBT into the Taproot HTLC. */
export const HtlcParamsSchema = z
  .strictObject({
    psbt: base64.meta({
      contentEncoding: "base64",
      description: `A BIP-174 PSBT (version 2 transaction, nLockTime 0, every input's nSequence 0xfffffffd). Inputs: the user's coins, each with \`witnessUtxo\`; P2TR inputs carry \`tapInternalKey\` (the user's x-only key), P2WPKH inputs \`nonWitnessUtxo\` (the previous transaction). Output 0: the HTLC, P2TR with internal key ${NUMS_KEY_HEX} (NUMS) and \`tapTree\` of two leaves (version 0xc0, depth 1): claim \`OP_SHA256 <secret_hash> OP_EQUALVERIFY <resolver_xonly> OP_CHECKSIG\`, refund \`<${HTLC_CSV_BLOCKS}> OP_CHECKSEQUENCEVERIFY OP_DROP <user_xonly> OP_CHECKSIG\`; value = source_amount_lots. Output 1 (optional): change to the user's source address. Sighash: DEFAULT (P2TR) or ALL (P2WPKH).`,
    }),
    inputs: z
      .array(z.int().min(0))
      .meta({ description: "Indexes of the inputs the user signs (all of them, in the sandbox)." }),
  })
  .meta({
    id: "HtlcParams",
    description: "Sign the listed inputs of `psbt` and send it back finalized or signed.",
  });

/** cosign (Solana): the deposit transaction the user signs before the resolver cosigns. */
export const CosignParamsSchema = z
  .strictObject({
    transaction: z
      .string()
      .regex(/^(?:[0-9a-f]{2})+$/)
      .meta({
        description:
          "Hex of a v0 VersionedTransaction (its one canonical serialization). Fee payer (signer 0): the resolver, its slot zeros until it cosigns. Instructions: an idempotent create of the escrow's associated token account (owner: `escrowOwner` of `GET /sandbox/chains`), a `TransferChecked` of source_amount_lots of the source mint from the user's associated token account (the user is its authority), and a Memo `swapintent:<intent_id>:<secret_hash>`.",
      }),
  })
  .meta({
    id: "CosignParams",
    description: "Add the user's ed25519 signature in its slot and send it back.",
  });

/** The `type` names the edge reads as `kind` (`APPROVAL_TYPES`): one name is a `const`, several an `enum`. */
const typeNamesOf = (kind: "permit2" | "psbt" | "cosign") => {
  const names = [...APPROVAL_TYPES].filter(([, k]) => k === kind).map(([name]) => name);
  return names.length === 1 ? z.literal(names[0] as string) : z.enum(names as [string, ...string[]]);
};

const alias = z
  .enum([...APPROVAL_TYPES.keys()])
  .optional()
  .meta({ description: "An older name of `type`, read only when `type` is absent." });

/** The approval body of a permit2 intent. */
const Permit2ApprovalSchema = z
  .object({
    type: typeNamesOf("permit2"),
    approval_type: alias,
    signed_data: z
      .string()
      .regex(/^0x(?:[0-9a-fA-F]{2}){65,16384}$/)
      .meta({
        description:
          "The signature, 0x hex: 65 bytes r‖s‖v (v 27 or 28, low s) for a key-held owner; a smart account's ERC-1271 signature (ERC-6492 wrapped while it is not deployed), at most 16384 bytes.",
      }),
  })
  .meta({ title: "permit2" });

/** The approval body of an htlc intent (`psbt`, or its other name `htlc`). */
const HtlcApprovalSchema = z
  .object({
    type: typeNamesOf("psbt"),
    approval_type: alias,
    signed_data: base64.meta({
      contentEncoding: "base64",
      description: "The PSBT of `params_to_sign`, the listed inputs signed (or finalized), base64.",
    }),
  })
  .meta({ title: "htlc" });

/** The approval body of a cosign intent. */
const CosignApprovalSchema = z
  .object({
    type: typeNamesOf("cosign"),
    approval_type: alias,
    signed_data: z.object({
      transaction: hex.meta({
        description: "The transaction of `params_to_sign` with the user's signature added.",
      }),
      user_address: z.string().meta({ description: "The user's base58 address (`user_source_address`)." }),
    }),
  })
  .meta({ title: "cosign" });

/**
 * `POST /affiliate/v1/intents/{intent_id}/approvals` as a client sends it, one shape per mechanism (the intent's
 * `approval_mechanism` says which). The edge reads it with `ApprovalEnvelopeSchema`; the leg judges `signed_data`.
 */
export const ApprovalRequestSchema = z
  .discriminatedUnion("type", [Permit2ApprovalSchema, HtlcApprovalSchema, CosignApprovalSchema])
  .meta({
    id: "ApprovalRequest",
    description:
      "The signed approval, by the intent's `approval_mechanism`: permit2 -> `permit2`, htlc -> `psbt` (or `htlc`), cosign -> `cosign`. A malformed or refused `signed_data` is a 422 naming the reason.",
  });
