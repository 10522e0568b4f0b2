/** Wire bodies as the service sends them (spec §2), for tests. */

export const quoteId = "4f1c2a3b-5d6e-4f70-8a9b-0c1d2e3f4a5b";
export const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
export const swapId = "11111111-2222-4333-8444-555555555555";

export function quoteWire(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: quoteId,
    source_chain: 1,
    source_token: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    dest_chain: 5,
    dest_token: "So11111111111111111111111111111111111111112",
    intermediate_token: null,
    intermediate_token_amount_min: null,
    intermediate_token_amount_max: null,
    intermediate_token_decimals: null,
    source_amount_lots: "1500000",
    source_amount_decimals: 6,
    min_dest_amount_lots: "9950000000000000000000",
    max_dest_amount_lots: "10000000000000000000000",
    dest_amount_decimals: 9,
    slippage_bps: "50",
    expiry: 4102444800000,
    swap_type: "standard",
    ...overrides,
  };
}

export const secretHash = `0x${"ab".repeat(32)}`;

export function permit2IntentWire(): Record<string, unknown> {
  return {
    intent_id: intentId,
    deadline_secs: 4102444800,
    secret_hash: secretHash,
    approval_mechanism: "permit2",
    params_to_sign: {
      escrow_contract_address: "0x1111111111111111111111111111111111111111",
      permit2_contract_address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
      resolver_deposit_address: "0x2222222222222222222222222222222222222222",
      nonce: 123456789,
      additional_data: {
        domain: {
          name: "Permit2",
          chainId: 1337001,
          verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
        },
        types: {
          TokenPermissions: [
            { name: "token", type: "address" },
            { name: "amount", type: "uint256" },
          ],
        },
        witness: { intentId: `0x${"00".repeat(16)}9b8a7c6d5e4f4a3b9c2d1e0f2a3b4c5d`, minDestAmount: "123" },
        secretHash,
        witness_type_string:
          "SwapWitness witness)SwapWitness(bytes32 intentId)TokenPermissions(address token,uint256 amount)",
        witness_hash: `0x${"cd".repeat(32)}`,
      },
    },
  };
}

export function statusWire(status: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    intent_id: intentId,
    status,
    swap_metadata: {
      id: swapId,
      proxy_address: "0x3333333333333333333333333333333333333333",
      user_deposit_tx: null,
      fulfill_tx: null,
      swap_tx: null,
      created_at: "2026-11-22T10:00:00Z",
      user_deposited_at: null,
      kyc_requested_at: null,
      fulfilled_at: null,
      swapped_at: null,
      refunded_at: null,
    },
    source_amount_decimals: 6,
    source_amount_lots: "1500000",
    source_chain: 1,
    source_token: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    dest_amount_decimals: 9,
    dest_chain: 5,
    dest_token: "So11111111111111111111111111111111111111112",
    min_dest_amount_lots: "995",
    max_dest_amount_lots: "1000",
    ...overrides,
  };
}

export const networksWire = [
  {
    id: 1,
    name: "Sandbox Ethereum",
    type: "EVM",
    supports_optimized_swap: true,
    icon_url: "https://x/eth.png",
    supports_custom_tokens: false,
  },
  {
    id: 2,
    name: "Sandbox L2",
    type: "EVM",
    supports_optimized_swap: false,
    icon_url: "https://x/l2.png",
    supports_custom_tokens: true,
  },
  {
    id: 3,
    name: "Sandbox Tron",
    type: "TRON",
    supports_optimized_swap: false,
    icon_url: "https://x/trx.png",
    supports_custom_tokens: false,
  },
  {
    id: 4,
    name: "Sandbox Bitcoin",
    type: "BITCOIN",
    supports_optimized_swap: false,
    icon_url: "https://x/btc.png",
    supports_custom_tokens: false,
  },
  {
    id: 5,
    name: "Sandbox Solana",
    type: "SOLANA",
    supports_optimized_swap: false,
    icon_url: "https://x/sol.png",
    supports_custom_tokens: false,
  },
];

export function tokenWire(index: number): Record<string, unknown> {
  return {
    network_id: 1 + (index % 5),
    name: `Token ${index}`,
    contract_address: `0x${index.toString(16).padStart(40, "0")}`,
    symbol: `T${index}`,
    icon_url: `https://x/t${index}.png`,
    wrapped_token_address: index % 7 === 0 ? `0x${"e".repeat(40)}` : null,
  };
}

/** A paginating handler over `total` generated tokens, honouring limit/offset like the service. */
export function tokensPageWire(query: URLSearchParams, total: number): Record<string, unknown> {
  const limit = Number(query.get("limit") ?? 20);
  const offset = Number(query.get("offset") ?? 0);
  const data = [];
  for (let i = offset; i < Math.min(total, offset + limit); i++) data.push(tokenWire(i));
  return { data, pagination: { limit, offset, pages: Math.ceil(total / limit), total } };
}

/**
 * Hex of a signed v0 Solana transaction as web3.js serialises one: the signature count (compact-u16), the
 * signatures, then the message: the v0 prefix 0x80, the header (required signatures, read-only signed, read-only
 * unsigned), the account keys, a blockhash, no instructions and no lookups.
 */
export function cosignTransactionHex({ signers = 2, keys = 3 } = {}): string {
  const hex = (byte: number) => byte.toString(16).padStart(2, "0");
  return [
    hex(signers),
    "11".repeat(64 * signers),
    "80",
    hex(signers),
    "00",
    "01",
    hex(keys),
    "22".repeat(32 * keys),
    "33".repeat(32),
    "00",
    "00",
  ].join("");
}

/** A base58 Solana address (32-byte ed25519 key). */
export const solanaAddress = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
