/**
 * The request signing guide against a sandbox that requires signed requests (`publicKeys`): the guide's signed
 * client swaps to Fulfilled, while a plain API key is refused with UNAUTHORIZED. (The sandbox's dev endpoints,
 * which fund the wallet, are not part of the service and take any key.)
 */
import { generateKeyPairSync } from "node:crypto";
import { createSwapIntentClient, isClientError } from "@swapintent/client";
import { startSandbox } from "@swapintent/sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { swapOnEvm } from "../examples/evm.js";
import { createSignedClient } from "../examples/request-signing.js";

const partner = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicKeyPem = partner.publicKey.export({ type: "spki", format: "pem" }).toString();
const privateKeyPem = partner.privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    dev: true,
    resolverIntervalMs: 50,
    publicKeys: [publicKeyPem],
    log: () => {},
  });
});
afterAll(async () => {
  await sandbox?.close();
});

it("a client that signs its requests swaps to Fulfilled; an unsigned one is refused", async () => {
  const refused = await createSwapIntentClient({ baseUrl: sandbox.url, apiKey: "docs-guides", retry: false })
    .getNetworks()
    .catch((error: unknown) => error);
  expect(isClientError(refused) && refused.code).toBe("UNAUTHORIZED");
  const client = createSignedClient({ baseUrl: sandbox.url, privateKeyPem, publicKeyPem });
  expect(await swapOnEvm({ baseUrl: sandbox.url, apiKey: "docs-guides", client })).toBe("Fulfilled");
});
