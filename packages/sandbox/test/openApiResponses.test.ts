/**
 * The OpenAPI document matches what the sandbox really answers: one sandbox on every engine (anvil + Permit2 for
 * EVM and Tron, the Bitcoin interpreter, litesvm) runs a full swap per approval mechanism (permit2 on EVM, on Tron
 * and from an ERC-1271 smart account; htlc; cosign) and calls every endpoint, the dev ones included; every answer
 * it gives (successes and refusals: 400, 401, 404, 422) is recorded and checked with ajv against the schema the
 * served document gives for its path, method and status. A 503 of a database that is away is provoked in process.
 */
import { Keypair } from "@solana/web3.js";
import { signHtlcPsbt } from "@swapintent/bitcoin";
import { createSwapIntentClient, type SwapIntentClient } from "@swapintent/client";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signCosignTransaction } from "@swapintent/solana";
import * as ecc from "tiny-secp256k1";
import { Trx } from "tronweb";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseError } from "../src/db/databaseError.js";
import { createApp } from "../src/http/createApp.js";
import { createOpenApiDocument } from "../src/http/createOpenApiDocument.js";
import type { Core } from "../src/service/core.js";
import { createOpenApiValidator } from "./support/createOpenApiValidator.js";
import {
  createBitcoinUser,
  createSolanaUser,
  EVM_NATIVE_TOKEN,
  fundEvmUser,
  type Sandbox,
  startFlowSandbox,
  submitEvmToBitcoinSwap,
  waitForOutcome,
} from "./support/flows.js";
import { createLegClients, createSmartWalletSigner } from "./support/smartAccounts.js";

const API_KEY = "openapi-responses-test";

/** One answer as the wire carried it. */
interface Recorded {
  method: string;
  path: string;
  status: number;
  body: unknown;
  retryAfter: string | null;
}

const recorded: Recorded[] = [];
const approvalBodies: { path: string; body: unknown; status: number }[] = [];
let sandbox: Sandbox;
let client: SwapIntentClient;
let document: Parameters<typeof createOpenApiValidator>[0]["document"];

/** `fetch`, keeping every answer (and every approval body sent). */
async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const method = (init?.method ?? "GET").toUpperCase();
  if (method === "POST" && url.pathname.endsWith("/approvals") && typeof init?.body === "string")
    approvalBodies.push({ path: url.pathname, body: JSON.parse(init.body), status: response.status });
  const text = await response.clone().text();
  recorded.push({
    method,
    path: url.pathname,
    status: response.status,
    body: JSON.parse(text),
    retryAfter: response.headers.get("retry-after"),
  });
  return response;
}

/** A request to the sandbox, recorded; `key: false` sends no API key. */
async function call(method: string, path: string, body?: unknown, key = true) {
  const response = await recordingFetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      ...(key ? { "x-api-key": API_KEY } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & Wire };
}
// biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked by the document's schemas
type Wire = any;

const tokensOf = (networkId: number) => sandbox.leg(networkId).info().tokens as Record<string, string>;
const waitFulfilled = (intentId: string) => waitForOutcome({ client, intentId, timeoutMs: 60_000 });

beforeAll(async () => {
  sandbox = (await startFlowSandbox({ networkIds: [1, 3, 4, 5], apiKey: API_KEY })).sandbox;
  client = createSwapIntentClient({ baseUrl: sandbox.url, apiKey: API_KEY, fetch: recordingFetch });
  document = (await call("GET", "/affiliate/v1/openapi.json")).body;
}, 180_000);
afterAll(() => sandbox?.close());

describe("swaps of every approval mechanism, through HTTP", { timeout: 120_000 }, () => {
  it("permit2 on EVM: USDC on network 1 to BTC reaches Fulfilled", async () => {
    const { user, intent } = await submitEvmToBitcoinSwap({ sandbox, client });
    expect((await waitFulfilled(intent.intentId)).status).toBe("Fulfilled");
    expect((await call("GET", `/sandbox/intents/${intent.intentId}`)).status).toBe(200);
    const history = await call("GET", `/affiliate/v1/swaps/history?wallet=${user.address}&active=false`);
    expect(history.body.items).toHaveLength(1);
  });

  it("permit2 on Tron: USDT on network 3 to EVM USDC, signed with TronWeb, reaches Fulfilled", async () => {
    const { privateKey, address: user } = await fundEvmUser({
      leg: sandbox.leg(3),
      token: tokensOf(3).USDT!,
      amountLots: 80_000_000n,
    });
    const quote = await client.getBestQuote({
      sourceChain: 3,
      sourceToken: tokensOf(3).USDT!,
      destChain: 1,
      destToken: tokensOf(1).USDC!,
      amount: "30",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user,
      userSourceAddress: user,
      userDestinationAddress: privateKeyToAccount(generatePrivateKey()).address,
    });
    if (intent.approvalMechanism !== "permit2") throw new Error("expected a permit2 intent");
    const params = intent.paramsToSign;
    const { EIP712Domain: _domain, ...types } = params.additionalData.types;
    const signature = Trx._signTypedData(
      params.additionalData.domain as never,
      types as never,
      {
        permitted: { token: quote.sourceToken, amount: quote.sourceAmountLots.toString() },
        spender: params.escrowContractAddress,
        nonce: params.nonce.toString(),
        deadline: String(intent.deadlineSecs),
        witness: params.additionalData.witness as Record<string, string>,
      },
      privateKey.slice(2),
    );
    await client.submitApproval({
      intentId: intent.intentId,
      approval: { type: "permit2", signedData: signature as `0x${string}` },
    });
    expect((await waitFulfilled(intent.intentId)).status).toBe("Fulfilled");
  });

  it("permit2 from a smart account (ERC-1271) made by POST /sandbox/smart-accounts reaches Fulfilled", async () => {
    const info = sandbox.leg(1).info();
    const owner = privateKeyToAccount(generatePrivateKey());
    const counterfactual = await call("POST", "/sandbox/smart-accounts", {
      network_id: 1,
      owner: owner.address,
      deploy: false,
    });
    expect(counterfactual.body.deployed).toBe(false);
    const account = (await call("POST", "/sandbox/smart-accounts", { network_id: 1, owner: owner.address }))
      .body;
    expect(account.deployed).toBe(true);
    expect(
      (
        await call("POST", "/sandbox/faucet", {
          network_id: 1,
          address: account.address,
          token: "USDC",
          amount: "5",
        })
      ).status,
    ).toBe(200);
    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: tokensOf(1).USDC!,
      destChain: 3,
      destToken: tokensOf(3).USDT!,
      amount: "2",
      slippageBps: 50,
    });
    const recipient = "TYBNgWfhGuNzdLtjKtxXTfskAhTbMcqbaG";
    const intent = await client.createIntent({
      quote,
      refundAddress: account.address,
      userSourceAddress: account.address,
      userDestinationAddress: recipient,
    });
    const { approval } = await signPermit2Approval({
      intent,
      quote,
      expected: {
        chainId: info.chainId as number,
        recipient,
        owner: account.address,
        spender: info.escrowAddress as string,
      },
      allowedPermit2Addresses: [info.permit2Address as string],
      signer: createSmartWalletSigner({
        owner,
        account: account.address as Address,
        chainId: info.chainId as number,
      }),
      publicClient: createLegClients(sandbox.leg(1)).publicClient,
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    expect((await waitFulfilled(intent.intentId)).status).toBe("Fulfilled");
  });

  it("htlc: BTC on network 4 to EVM USDC reaches Fulfilled", async () => {
    const user = createBitcoinUser();
    expect(
      (
        await call("POST", "/sandbox/faucet", {
          network_id: 4,
          address: user.p2tr,
          token: "btc",
          amount: 0.002,
        })
      ).status,
    ).toBe(200);
    const quote = await client.getBestQuote({
      sourceChain: 4,
      sourceToken: "btc",
      destChain: 1,
      destToken: tokensOf(1).USDC!,
      amount: "0.001",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user.p2tr,
      userSourceAddress: user.p2tr,
      userDestinationAddress: privateKeyToAccount(generatePrivateKey()).address,
      userSourcePublicKey: `0x${user.publicKey}`,
    });
    const { approval } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: user.publicKey,
      signer: user.key,
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    expect((await waitFulfilled(intent.intentId)).status).toBe("Fulfilled");
    const balance = await call("GET", `/sandbox/balance?network_id=4&address=${user.p2tr}&token=BTC`);
    expect(balance.status).toBe(200);
  });

  it("cosign: Solana USDC on network 5 to EVM USDC reaches Fulfilled", async () => {
    const chains = (await call("GET", "/sandbox/chains")).body as Wire[];
    const info = chains.find((c) => c.network_id === 5).info;
    const { user, address, publicKey } = await createSolanaUser({
      leg: sandbox.leg(5),
      token: info.tokens.USDC,
      amountLots: 20_000_000n,
    });
    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: info.tokens.USDC,
      destChain: 1,
      destToken: tokensOf(1).USDC!,
      amount: "12.5",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: privateKeyToAccount(generatePrivateKey()).address,
      userSourcePublicKey: publicKey,
    });
    const signed = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: info.escrowOwner },
      signer: user,
    });
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    expect((await waitFulfilled(intent.intentId)).status).toBe("Fulfilled");
  });
});

describe("the other endpoints and the refusals", { timeout: 60_000 }, () => {
  it("answers every other endpoint, and refuses with 400, 401, 404 and 422", async () => {
    const usdc = tokensOf(1).USDC!;
    const quoteBody = {
      source_chain: 1,
      source_token: usdc,
      dest_chain: 5,
      dest_token: tokensOf(5).USDC!,
      amount: "1.5",
      slippage_bps: "50",
      swap_type: "standard",
    };
    const expected: [Promise<{ status: number }>, number][] = [
      [call("GET", "/affiliate/v1/networks"), 200],
      [call("GET", "/affiliate/v1/tokens?network_id=1&limit=2&q=us"), 200],
      [call("GET", "/sandbox/status"), 200],
      [call("GET", "/sandbox/clock"), 200],
      [call("POST", "/sandbox/clock", { advance_secs: 0 }), 200],
      [call("GET", "/sandbox/faults"), 200],
      [call("POST", "/sandbox/faults", { decline_all: false }), 200],
      [call("POST", "/affiliate/v1/quotes/best", { ...quoteBody, amount: undefined }), 400],
      [call("POST", "/affiliate/v1/quotes/best", "{not json"), 400],
      [call("POST", "/affiliate/v1/quotes/best", quoteBody, false), 401],
      [call("POST", "/affiliate/v1/quotes/best", { ...quoteBody, source_token: EVM_NATIVE_TOKEN }), 422],
      [call("POST", "/affiliate/v1/intents", { quote_id: "nope" }), 400],
      [call("GET", "/affiliate/v1/intents/not-a-uuid/status"), 400],
      [call("GET", `/affiliate/v1/intents/${crypto.randomUUID()}/status`), 404],
      [
        call("POST", `/affiliate/v1/intents/${crypto.randomUUID()}/approvals`, {
          type: "permit2",
          signed_data: "0x00",
        }),
        404,
      ],
      [call("GET", "/affiliate/v1/tokens?limit=0"), 400],
      [call("GET", "/affiliate/v1/swaps/history"), 400],
      [call("GET", "/affiliate/v1/networks", undefined, false), 401],
      [call("GET", `/sandbox/intents/${crypto.randomUUID()}`), 404],
      [call("POST", "/sandbox/faucet", { network_id: 1, token: "USDC" }), 400],
      [call("GET", "/sandbox/balance?network_id=1"), 400],
      [call("POST", "/sandbox/clock", { advance_secs: -1 }), 400],
      [call("POST", "/sandbox/faults", { no_such_fault: true }), 400],
      [call("POST", "/sandbox/smart-accounts", { network_id: 1, owner: usdc, salt: "0x1" }), 400],
      [call("POST", "/sandbox/smart-accounts", { network_id: 4, owner: "x" }), 400],
    ];
    for (const [response, status] of expected) expect((await response).status).toBe(status);

    const quote = await call("POST", "/affiliate/v1/quotes/best", quoteBody);
    const user = privateKeyToAccount(generatePrivateKey()).address;
    const intent = await call("POST", "/affiliate/v1/intents", {
      quote_id: quote.body.id,
      refund_address: user,
      user_source_address: user,
      user_destination_address: Keypair.generate().publicKey.toBase58(),
    });
    expect(intent.status).toBe(200);
    const approvals = `/affiliate/v1/intents/${intent.body.intent_id}/approvals`;
    const refused = [
      await call("POST", approvals, { type: "permit2", signed_data: `0x${"11".repeat(64)}1b` }),
      await call("POST", approvals, {
        type: "cosign",
        signed_data: { transaction: "00", user_address: user },
      }),
      await call("POST", approvals, { signed_data: "0x00" }),
      await call("POST", "/affiliate/v1/intents", {
        quote_id: quote.body.id,
        refund_address: user,
        user_source_address: user,
        user_destination_address: user,
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([422, 422, 400, 422]);
  });

  it("a database that is away is answered 503 SERVICE_UNAVAILABLE with Retry-After (in process)", async () => {
    const away = async () => {
      throw createDatabaseError("SANDBOX_DATABASE_UNAVAILABLE", "The database was closed.", {
        reason: "closed",
      } as never);
    };
    const core = {
      networks: [],
      tokens: [],
      log: () => {},
      store: { getStatus: away, getIntent: away },
    } as unknown as Core;
    const app = createApp({
      core,
      authenticate: async () => ({ partnerId: "p" }),
      dev: { status: away } as never,
    });
    for (const path of [`/affiliate/v1/intents/${crypto.randomUUID()}/status`, "/sandbox/status"]) {
      const response = await app.request(path);
      recorded.push({
        method: "GET",
        path,
        status: response.status,
        body: await response.json(),
        retryAfter: response.headers.get("retry-after"),
      });
      expect(response.status).toBe(503);
    }
  });
});

describe("every recorded answer matches the served document", () => {
  it("for its path, method and status; each operation answered 200 at least once", () => {
    const validator = createOpenApiValidator({ document });
    const mismatches = recorded.flatMap((r) => validator.response(r).errors);
    expect(mismatches).toEqual([]);
    const answered = new Set(
      recorded
        .filter((r) => r.status === 200)
        .map((r) => `${r.method.toLowerCase()} ${validator.response(r).template}`),
    );
    const operations = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(operations.filter((op) => !answered.has(op))).toEqual([]);
    expect(new Set(recorded.map((r) => r.status))).toEqual(new Set([200, 400, 401, 404, 422, 503]));
    for (const r of recorded.filter((r) => r.status === 503)) {
      expect(r.body).toMatchObject({ type: "SERVICE_UNAVAILABLE" });
      expect(r.retryAfter).toBe("1");
    }
  });

  it("the check is strict: an answer with a field the document does not name, or missing one, is refused", () => {
    const validator = createOpenApiValidator({ document });
    const created = recorded.filter((r) => r.path === "/affiliate/v1/intents" && r.status === 200);
    expect(created.length).toBeGreaterThanOrEqual(5);
    for (const r of created) {
      const body = r.body as Record<string, Wire>;
      const { params_to_sign: _omitted, ...withoutParams } = body;
      expect(validator.response({ ...r, body: { ...body, extra: 1 } }).errors).not.toEqual([]);
      expect(validator.response({ ...r, body: withoutParams }).errors).not.toEqual([]);
      const params = { ...body.params_to_sign, unexpected: true };
      expect(validator.response({ ...r, body: { ...body, params_to_sign: params } }).errors).not.toEqual([]);
    }
  });

  it("every approval body the signers sent matches its mechanism's shape in the document", () => {
    const validator = createOpenApiValidator({ document });
    const accepted = approvalBodies.filter((a) => a.status === 200);
    expect(accepted.map((a) => (a.body as { type: string }).type).sort()).toEqual([
      "cosign",
      "permit2",
      "permit2",
      "permit2",
      "psbt",
    ]);
    for (const { path, body } of accepted)
      expect(validator.requestBody({ method: "POST", path, body }).errors).toEqual([]);
    expect(createOpenApiDocument({ dev: true })).toEqual(document);
  });
});
