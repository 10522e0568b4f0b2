import { isSwapIntentError } from "@swapintent/client";
import * as tronweb from "tronweb";
import { recoverTypedDataAddress, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  buildPermit2Fixture,
  OTHER_PRIVATE_KEY,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import type { Permit2TypedData } from "../types.js";
import { signTronPermit2Approval } from "./signTronPermit2Approval.js";

function parametersOf(chain: "evm" | "tron" = "tron", witness?: Record<string, string>) {
  const f = buildPermit2Fixture({ chain, ...(witness ? { witness } : {}) });
  return {
    fixture: f,
    parameters: {
      intent: f.intent,
      quote: f.quote,
      expected: f.expected,
      allowedPermit2Addresses: f.allowedPermit2Addresses,
      nowMs: f.nowMs,
    },
  };
}

const asViem = (t: object) => t as unknown as TypedDataDefinition;

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isSwapIntentError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("signTronPermit2Approval", () => {
  it("signs with a private key through TronWeb (loaded lazily); byte-identical to viem over the converted data", async () => {
    const { fixture, parameters } = parametersOf();
    const result = await signTronPermit2Approval({ ...parameters, privateKey: USER_PRIVATE_KEY.slice(2) });
    const viemSignature = await privateKeyToAccount(USER_PRIVATE_KEY).signTypedData(
      asViem(fixture.evmTypedData),
    );

    expect(result.owner).toBe(TRON.user);
    expect(result.signature).toBe(viemSignature);
    expect(result.approval).toEqual({ type: "permit2", signedData: viemSignature });
    expect(
      await recoverTypedDataAddress({ ...asViem(fixture.evmTypedData), signature: result.signature }),
    ).toBe(USER_ADDRESS);
    const { domain, types, message } = result.verified.typedData;
    expect(tronweb.Trx.verifyTypedData(domain, types, message, result.signature, TRON.user)).toBe(true);
  });

  it("uses a caller-passed tronweb module", async () => {
    const { parameters } = parametersOf();
    const result = await signTronPermit2Approval({
      ...parameters,
      privateKey: USER_PRIVATE_KEY,
      tronWeb: tronweb,
    });
    expect(result.owner).toBe(TRON.user);
  });

  it("signs with a TronLink-style signer and normalizes v = 0/1 (no 0x) to 27/28", async () => {
    const { fixture, parameters } = parametersOf();
    const calls: unknown[][] = [];
    const tronLink = {
      address: TRON.user,
      signTypedData({ domain, types, message }: Permit2TypedData) {
        calls.push([domain, types, message]);
        const sig = tronweb.Trx.signTypedData(domain, types, message, USER_PRIVATE_KEY);
        const v = Number.parseInt(sig.slice(130), 16) - 27;
        return `${sig.slice(2, 130)}0${v}`;
      },
    };
    const result = await signTronPermit2Approval({ ...parameters, signer: tronLink });
    expect(calls).toHaveLength(1);
    expect((calls[0]![0] as { verifyingContract: string }).verifyingContract).toBe(TRON.permit2);
    expect(result.signature).toBe(
      await privateKeyToAccount(USER_PRIVATE_KEY).signTypedData(asViem(fixture.evmTypedData)),
    );
  });

  it("verifies before signing: a tampered witness never reaches the signer", async () => {
    const { parameters } = parametersOf("tron", { maxDestAmount: "1" });
    let called = 0;
    const signer = {
      address: TRON.user,
      signTypedData() {
        called++;
        return "";
      },
    };
    expect(await codeOf(() => signTronPermit2Approval({ ...parameters, signer }))).toBe(
      "PERMIT2_MAX_AMOUNT_MISMATCH",
    );
    expect(called).toBe(0);
  });

  it("refuses EVM params (chain type) and a key that is not the expected owner", async () => {
    const evm = parametersOf("evm").parameters;
    expect(await codeOf(() => signTronPermit2Approval({ ...evm, privateKey: USER_PRIVATE_KEY }))).toBe(
      "PERMIT2_CHAIN_TYPE_MISMATCH",
    );
    const { parameters } = parametersOf();
    expect(
      await codeOf(() =>
        signTronPermit2Approval({
          ...parameters,
          expected: { ...parameters.expected, owner: TRON.user },
          privateKey: OTHER_PRIVATE_KEY,
        }),
      ),
    ).toBe("PERMIT2_OWNER_MISMATCH");
  });

  it("refuses a TronLink signature from another key", async () => {
    const { parameters } = parametersOf();
    const signer = {
      address: TRON.user,
      signTypedData: ({ domain, types, message }: Permit2TypedData) =>
        tronweb.Trx.signTypedData(domain, types, message, OTHER_PRIVATE_KEY),
    };
    expect(await codeOf(() => signTronPermit2Approval({ ...parameters, signer }))).toBe(
      "PERMIT2_SIGNER_MISMATCH",
    );
  });
});
