/**
 * The request bodies of the API and of the dev endpoints: one schema each, which `readBody` checks requests with and
 * the OpenAPI document shows. Fields are listed in the order they are checked (the first refused one is answered).
 */
import { z } from "zod";
import {
  decimalText,
  optionalText,
  optionalUuid,
  requiredInteger,
  requiredText,
  requiredUuid,
  type WireIssueParams,
} from "./bodyFields.js";

/** `POST /affiliate/v1/quotes/best` (spec 2.1). */
export const QuoteRequestSchema = z
  .object({
    source_chain: requiredInteger.meta({ description: "Source network (service id, `GET /networks`)." }),
    source_token: requiredText.meta({ description: "Source token's `contract_address` (`GET /tokens`)." }),
    dest_chain: requiredInteger.meta({ description: "Destination network (service id)." }),
    dest_token: requiredText.meta({ description: "Destination token's `contract_address`." }),
    amount: decimalText,
    slippage_bps: requiredText.meta({
      pattern: "^[0-9]{1,5}$",
      description: "Slippage in basis points, an integer string from 0 to 10000.",
    }),
    swap_type: requiredText.meta({ enum: ["standard"] }),
    retail_user_id: optionalUuid,
  })
  .meta({ id: "QuoteRequest" });

const PUBLIC_KEY_DESCRIPTION =
  "The source address's public key, hex with or without `0x`: required for Bitcoin (33-byte compressed secp256k1, `02`/`03` + 32 bytes, owning the P2TR key-path or P2WPKH source address) and Solana (the 32-byte ed25519 key the base58 address encodes); EVM and Tron do not check it (any hex up to 65 bytes).";

/** `POST /affiliate/v1/intents` (spec 4.2). */
export const IntentRequestSchema = z
  .object({
    quote_id: requiredUuid.meta({ description: "The quote's `id`, unused and unexpired." }),
    refund_address: requiredText.meta({ description: "Refunds go here (source network)." }),
    retail_user_id: optionalUuid,
    user_destination_address: requiredText.meta({
      description: "Where the swap delivers (destination network).",
    }),
    user_source_address: requiredText.meta({ description: "The user's address on the source network." }),
    user_source_public_key: optionalText.meta({
      anyOf: [
        { title: "Bitcoin", type: "string", pattern: "^(0x)?0[23][0-9a-fA-F]{64}$" },
        { title: "Solana", type: "string", pattern: "^(0x)?[0-9a-fA-F]{64}$" },
        { title: "EVM or Tron (not checked)", type: "string", pattern: "^(0x)?([0-9a-fA-F]{2}){1,65}$" },
      ],
      description: PUBLIC_KEY_DESCRIPTION,
    }),
  })
  .meta({ id: "IntentRequest" });

const report = (ctx: { addIssue: (issue: z.core.$ZodRawIssue) => void }, params: WireIssueParams) =>
  ctx.addIssue({ code: "custom", message: params.message ?? params.code, params, input: undefined });

/** The wire's approval types; `htlc` is another name of `psbt`. A Map: `toString` or `__proto__` find nothing. */
export const APPROVAL_TYPES: ReadonlyMap<string, "permit2" | "psbt" | "cosign"> = new Map([
  ["permit2", "permit2"],
  ["psbt", "psbt"],
  ["htlc", "psbt"],
  ["cosign", "cosign"],
]);

/**
 * `POST /affiliate/v1/intents/{intent_id}/approvals`, as the edge reads it: `type` (or its older name
 * `approval_type`, read only without `type`) and a present `signed_data`. What `signed_data` must be for each
 * mechanism is the source leg's to judge (a 422 naming the reason); the document shows it per mechanism
 * (`ApprovalRequest`).
 */
export const ApprovalEnvelopeSchema = z
  .object({
    type: z.unknown().optional(),
    approval_type: z.unknown().optional(),
    signed_data: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    for (const name of ["type", "approval_type"] as const) {
      const value = body[name];
      if (value !== undefined && value !== null) {
        if (typeof value !== "string")
          return report(ctx, { code: "INVALID_FIELD", message: `The field \`${name}\` must be a string.` });
        if (!APPROVAL_TYPES.has(value))
          return report(ctx, {
            code: "INVALID_APPROVAL_TYPE",
            message: "`type` must be one of permit2, psbt (htlc), cosign.",
          });
        break;
      }
    }
    if ((body.type ?? body.approval_type ?? undefined) === undefined)
      return report(ctx, { code: "MISSING_FIELD", message: "The field `type` is required." });
    if (body.signed_data === undefined || body.signed_data === null)
      report(ctx, { code: "MISSING_FIELD", message: "The field `signed_data` is required." });
  })
  .transform((body) => ({
    type: APPROVAL_TYPES.get((body.type ?? body.approval_type) as string) as "permit2" | "psbt" | "cosign",
    signedData: body.signed_data,
  }));

/** `POST /sandbox/faucet`: mint or send test tokens. */
export const FaucetRequestSchema = z
  .object({
    network_id: requiredInteger,
    address: requiredText.meta({ description: "The receiving address, in the network's form." }),
    token: requiredText.meta({ description: "A token's contract address (mint, `btc`) or its symbol." }),
    amount: decimalText,
  })
  .meta({ id: "FaucetRequest" });

/** `POST /sandbox/clock`: move the sandbox clock forward. */
export const ClockRequestSchema = z
  .object({
    advance_secs: requiredInteger
      .superRefine((secs, ctx) => {
        if (secs < 0)
          report(ctx, {
            code: "INVALID_FIELD",
            message: "`advance_secs` must be >= 0 (the clock only moves forward).",
          });
      })
      .meta({ minimum: 0, description: "Seconds to move forward (at most 100 years ahead in all)." }),
  })
  .meta({ id: "ClockRequest" });

const FAULT_NAMES = ["fail_delivery", "decline_all"] as const;

/** The refusal of a key that is no fault: named when it is a plain short name (a typo), else not repeated back. */
const unknownFaultMessage = (key: string) =>
  /^[A-Za-z0-9_]{1,64}$/.test(key)
    ? `Unknown fault \`${key}\`.`
    : `Unknown fault; the faults are ${FAULT_NAMES.join(" and ")}.`;

/** `POST /sandbox/faults`: switch resolver faults on or off (only the named ones change). */
export const FaultsRequestSchema = z
  .unknown()
  .superRefine((body, ctx) => {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (!(FAULT_NAMES as readonly string[]).includes(key))
        return report(ctx, { code: "UNKNOWN_FAULT", message: unknownFaultMessage(key) });
      if (typeof value !== "boolean")
        return report(ctx, { code: "INVALID_FIELD", message: `\`${key}\` must be a boolean.` });
    }
  })
  .transform((body) => {
    const record = body as Record<string, boolean>;
    const changes: Partial<Record<(typeof FAULT_NAMES)[number], boolean>> = {};
    for (const name of FAULT_NAMES) if (Object.hasOwn(record, name)) changes[name] = record[name] as boolean;
    return changes;
  })
  .meta({
    id: "FaultsRequest",
    type: "object",
    properties: {
      fail_delivery: {
        type: "boolean",
        description: "The resolver fails every delivery (intents are refunded).",
      },
      decline_all: { type: "boolean", description: "The resolver declines every approved intent." },
    },
    additionalProperties: false,
  });

const deployField = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value !== undefined && value !== null && typeof value !== "boolean")
      report(ctx, { code: "INVALID_FIELD", message: "`deploy` must be a boolean." });
  })
  .transform((value) => (value ?? true) as boolean)
  .meta({ type: "boolean", default: true, description: "false: leave the account counterfactual." })
  .optional();

/** `POST /sandbox/smart-accounts`: the sandbox smart account (ERC-1271) of an owner on a permit2 network. */
export const SmartAccountRequestSchema = z
  .object({
    network_id: requiredInteger,
    owner: requiredText.meta({ description: "The account's owner (the key that signs for it)." }),
    salt: optionalText
      .superRefine((salt, ctx) => {
        if (salt !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(salt))
          report(ctx, { code: "INVALID_FIELD", message: "`salt` must be 32 bytes of 0x hex." });
      })
      .meta({ pattern: "^0x[0-9a-fA-F]{64}$", description: "CREATE2 salt (default 32 zero bytes)." }),
    deploy: deployField,
  })
  .meta({ id: "SmartAccountRequest" });
