import { isSwapIntentError } from "@swapintent/client";
import { AbiCoder, Interface, MaxUint256 } from "ethers";
import { createPublicClient, custom } from "viem";
import { describe, expect, it } from "vitest";
import { EVM, USER_ADDRESS } from "../../test/fixtures/buildPermit2Fixture.js";
import { assertPermit2Allowance } from "./assertPermit2Allowance.js";
import { getPermit2Allowance } from "./getPermit2Allowance.js";

const erc20 = new Interface([
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
]);

/** A JSON-RPC node stand-in that answers `allowance` from a table, decoding calls with ethers. */
function clientWithAllowances(allowances: Record<string, bigint>) {
  const seen: { owner: string; spender: string }[] = [];
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method === "eth_chainId") return "0x1";
        if (method !== "eth_call") throw new Error(`unsupported ${method}`);
        const [call] = params as [{ to: string; data: string }];
        const decoded = erc20.decodeFunctionData("allowance", call.data);
        seen.push({ owner: decoded[0], spender: decoded[1] });
        const value = allowances[`${call.to.toLowerCase()}:${String(decoded[1]).toLowerCase()}`] ?? 0n;
        return AbiCoder.defaultAbiCoder().encode(["uint256"], [value]);
      },
    }),
  });
  return { client, seen };
}

const key = `${EVM.token.toLowerCase()}:${EVM.permit2.toLowerCase()}`;

describe("getPermit2Allowance", () => {
  it("reports a sufficient allowance to the given Permit2", async () => {
    const { client, seen } = clientWithAllowances({ [key]: 5_000_000n });
    const result = await getPermit2Allowance({
      publicClient: client,
      token: EVM.token,
      owner: USER_ADDRESS,
      amount: 2_500_000n,
      permit2Address: EVM.permit2,
    });
    expect(result).toEqual({
      sufficient: true,
      allowance: 5_000_000n,
      required: 2_500_000n,
      approveTransaction: null,
    });
    expect(seen).toEqual([{ owner: USER_ADDRESS, spender: EVM.permit2 }]);
  });

  it("returns the approve transaction (unlimited by default) when the allowance is missing", async () => {
    const { client } = clientWithAllowances({ [key]: 1n });
    const result = await getPermit2Allowance({
      publicClient: client,
      token: EVM.token,
      owner: USER_ADDRESS,
      amount: 2_500_000n,
      permit2Address: EVM.permit2,
    });
    expect(result.sufficient).toBe(false);
    expect(result.allowance).toBe(1n);
    expect(result.approveTransaction?.to).toBe(EVM.token);
    const approve = erc20.decodeFunctionData("approve", result.approveTransaction!.data);
    expect(approve[0]).toBe(EVM.permit2);
    expect(approve[1]).toBe(MaxUint256);
  });

  it("reads the allowance to the canonical Permit2 by default and can approve an exact amount", async () => {
    const { client, seen } = clientWithAllowances({});
    const result = await getPermit2Allowance({
      publicClient: client,
      token: EVM.token,
      owner: USER_ADDRESS,
      amount: 7n,
      approveAmount: 7n,
    });
    expect(seen[0]!.spender).toBe("0x000000000022D473030F116dDEE9F6B43aC78BA3");
    expect(erc20.decodeFunctionData("approve", result.approveTransaction!.data)[1]).toBe(7n);
  });

  it("assertPermit2Allowance throws PERMIT2_ALLOWANCE_INSUFFICIENT with the approve request in details", async () => {
    const { client } = clientWithAllowances({ [key]: 0n });
    const error = await assertPermit2Allowance({
      publicClient: client,
      token: EVM.token,
      owner: USER_ADDRESS,
      amount: 2_500_000n,
      permit2Address: EVM.permit2,
    }).catch((e: unknown) => e);
    expect(isSwapIntentError(error, "PERMIT2_ALLOWANCE_INSUFFICIENT")).toBe(true);
    const details = (error as { details: { approveTransaction: { to: string }; required: bigint } }).details;
    expect(details.approveTransaction.to).toBe(EVM.token);
    expect(details.required).toBe(2_500_000n);
  });

  it("assertPermit2Allowance returns the allowance when it suffices", async () => {
    const { client } = clientWithAllowances({ [key]: 2_500_000n });
    expect(
      await assertPermit2Allowance({
        publicClient: client,
        token: EVM.token,
        owner: USER_ADDRESS,
        amount: 2_500_000n,
        permit2Address: EVM.permit2,
      }),
    ).toBe(2_500_000n);
  });

  it("wraps a failed read as PERMIT2_ALLOWANCE_READ_FAILED", async () => {
    const client = createPublicClient({
      transport: custom(
        {
          async request() {
            throw new Error("connection refused");
          },
        },
        { retryCount: 0 },
      ),
    });
    const error = await getPermit2Allowance({
      publicClient: client,
      token: EVM.token,
      owner: USER_ADDRESS,
      amount: 1n,
    }).catch((e: unknown) => e);
    expect(isSwapIntentError(error, "PERMIT2_ALLOWANCE_READ_FAILED")).toBe(true);
  });
});
