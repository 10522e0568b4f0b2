/**
 * The client's check of a `psbt` approval (base64 with the PSBT magic, whole quads) against PSBTs bitcoinjs-lib
 * serialises: its base64 passes; its hex, or its base64 cut inside a quad, is refused before any request.
 */

import { createSwapIntentClient, isSwapIntentError } from "@swapintent/client";
import { Psbt } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";

function submit(signedData: string, bodies: string[]) {
  return createSwapIntentClient({
    baseUrl: "https://swap.example",
    apiKey: "k",
    retry: false,
    fetch: async (_url, init) => {
      bodies.push(String(init?.body));
      return new Response("");
    },
  }).submitApproval({ intentId, approval: { type: "psbt", signedData } });
}

describe("psbt approvals as bitcoinjs-lib writes them", () => {
  const psbt = new Psbt()
    .addInput({ hash: "11".repeat(32), index: 1 })
    .addOutput({ script: Uint8Array.from([0x51, 0x20, ...new Uint8Array(32)]), value: 12_345n });

  it("toBase64() is sent as is", async () => {
    for (const base64 of [psbt.toBase64(), new Psbt().toBase64()]) {
      const bodies: string[] = [];
      await submit(base64, bodies);
      expect(JSON.parse(bodies[0] as string).signed_data).toBe(base64);
    }
  });

  it("toHex(), or base64 cut inside a quad (as a truncated copy is), is INVALID_INPUT, nothing sent", async () => {
    const base64 = psbt.toBase64();
    for (const wrong of [
      psbt.toHex(),
      base64.slice(0, -1),
      base64.slice(0, -2),
      base64.slice(0, -3),
      `${base64}=`,
    ]) {
      const bodies: string[] = [];
      const error = await submit(wrong, bodies).catch((e: unknown) => e);
      expect(isSwapIntentError(error, "INVALID_INPUT"), wrong).toBe(true);
      expect(bodies).toEqual([]);
    }
  });
});
