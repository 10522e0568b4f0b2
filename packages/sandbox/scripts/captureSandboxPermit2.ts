/**
 * Writes packages/permit2/test/fixtures/sandbox-permit2.json (the `@swapintent/permit2` tests' fixture): a quote and an intent on the wire (snake_case JSON), EVM and Tron,
 * whose `params_to_sign` the sandbox's own builder (`packages/sandbox/src/legs/evm/buildPermit2ParamsToSign.ts`)
 * produced, with the sandbox's deterministic anvil addresses. The generative tamper test starts from these.
 *
 *   pnpm exec tsx --conditions=swapintent-source packages/sandbox/scripts/captureSandboxPermit2.ts
 *
 * It lives with the sandbox (test support), so the published signer package never imports the service.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPermit2ParamsToSign } from "../src/legs/evm/buildPermit2ParamsToSign.js";
import { formatTronAddress } from "../src/legs/evm/formatTronAddress.js";

const here = dirname(fileURLToPath(import.meta.url));
// anvil's deterministic deployments (first dev account, nonces 0 and 1) and its second account.
const permit2 = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const escrow = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const resolver = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const token = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const user = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const nowMs = 1_800_000_000_000;

function capture(chain: "evm" | "tron") {
  const formatAddress =
    chain === "evm" ? (a: string) => a : (a: string) => formatTronAddress(a as `0x${string}`);
  const intentId =
    chain === "evm" ? "3f1c9a52-7b4e-4d2a-9c61-0e8f5b7a2d14" : "9d2e4f10-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
  const intent = {
    intentId,
    sourceToken: formatAddress(token),
    sourceAmountLots: 2_500_000n,
    destChain: 4,
    destToken: "btc",
    minDestAmountLots: 3_900n,
    maxDestAmountLots: 4_100n,
    userSourceAddress: formatAddress(user),
    userSourcePublicKey: null,
    userDestinationAddress: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
    refundAddress: formatAddress(user),
    secretHash: `0x${"ab".repeat(32)}` as const,
    deadlineSecs: nowMs / 1000 + 3600,
  };
  const chainId = chain === "evm" ? 1337001 : 1396788804;
  const paramsToSign = buildPermit2ParamsToSign({
    intent,
    chainId,
    permit2,
    escrow,
    resolverDeposit: resolver,
    nonce: 123_456_789n,
    formatAddress,
  });
  return {
    chainId,
    escrow: formatAddress(escrow),
    permit2: formatAddress(permit2),
    user: formatAddress(user),
    recipient: intent.userDestinationAddress,
    nowMs,
    quote: {
      id: chain === "evm" ? "7b0e3c1a-2f4d-4e6b-8a9c-1d2e3f405162" : "c4d5e6f7-0819-4a2b-9c3d-4e5f60718293",
      source_chain: chain === "evm" ? 1 : 3,
      source_token: intent.sourceToken,
      dest_chain: 4,
      dest_token: "btc",
      source_amount_lots: "2500000",
      source_amount_decimals: 6,
      min_dest_amount_lots: "3900",
      max_dest_amount_lots: "4100",
      dest_amount_decimals: 8,
      slippage_bps: "50",
      expiry: nowMs + 30_000,
      swap_type: "exact_input",
    },
    intent: {
      intent_id: intentId,
      deadline_secs: intent.deadlineSecs,
      secret_hash: intent.secretHash,
      approval_mechanism: "permit2",
      params_to_sign: paramsToSign,
    },
  };
}

writeFileSync(
  join(here, "../../permit2/test/fixtures/sandbox-permit2.json"),
  `${JSON.stringify({ evm: capture("evm"), tron: capture("tron") }, null, 2)}\n`,
);
