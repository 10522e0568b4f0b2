/**
 * The real sandbox CLI (real engines) in a child process: a transaction a user sends straight to the EVM engine's
 * RPC survives a SIGKILL right after its hash comes back, a signal to the whole process group stops the sandbox
 * with its engines' state saved, and no engine outlives a SIGKILLed sandbox.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { EVM_NATIVE_TOKEN } from "../src/legs/evm/permit2Types.js";
import { createBitcoinUser, createEngineClients } from "./support/flows.js";
import { type SpawnedSandbox, spawnSandbox } from "./support/spawnSandbox.js";

const dirs: string[] = [];
const running: SpawnedSandbox[] = [];
afterAll(async () => {
  await Promise.allSettled(running.map((s) => s.kill("SIGKILL")));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<SpawnedSandbox> {
  const s = await spawnSandbox({
    args: ["--port", "0", "--dev", "--data-dir", dataDir],
    realLegs: true,
    detached: true,
  });
  running.push(s);
  return s;
}

async function evmInfo(s: SpawnedSandbox): Promise<Record<string, unknown>> {
  const chains = (await (await fetch(`${s.url}/sandbox/chains`)).json()) as {
    network_id: number;
    info: Record<string, unknown>;
  }[];
  const evm = chains.find((c) => c.network_id === 1);
  if (!evm) throw new Error("no network 1");
  return evm.info;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitDead(pid: number, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** A fresh user funded with 1 ETH by the faucet, who sends 0.25 ETH straight to the engine's RPC URL. */
async function sendUserTransfer(s: SpawnedSandbox) {
  const info = await evmInfo(s);
  const user = privateKeyToAccount(generatePrivateKey());
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const funded = await fetch(`${s.url}/sandbox/faucet`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ network_id: 1, address: user.address, token: EVM_NATIVE_TOKEN, amount: 1 }),
  });
  expect(funded.status).toBe(200);
  const { chain } = createEngineClients(info);
  const wallet = createWalletClient({ account: user, chain, transport: http(info.rpcUrl as string) });
  const hash = await wallet.sendTransaction({ to: recipient, value: parseEther("0.25") });
  return { hash, recipient, enginePid: info.enginePid as number };
}

/** Faucet mints on Bitcoin (network 4) and Solana (network 5): writes a user causes through the dev endpoints. */
async function faucetOtherEngines(s: SpawnedSandbox) {
  const btc = { network_id: 4, address: createBitcoinUser().p2tr, token: "btc", amount: "0.0123" };
  const sol = {
    network_id: 5,
    address: Keypair.generate().publicKey.toBase58(),
    token: "USDC",
    amount: "4.5",
  };
  for (const body of [btc, sol]) {
    const r = await fetch(`${s.url}/sandbox/faucet`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(200);
  }
  return { btc, sol };
}

async function balanceLots(s: SpawnedSandbox, q: { network_id: number; address: string; token: string }) {
  const r = await fetch(
    `${s.url}/sandbox/balance?network_id=${q.network_id}&address=${q.address}&token=${q.token}`,
  );
  return ((await r.json()) as { balance_lots: string }).balance_lots;
}

describe("engine state across stops and crashes (real engines)", { timeout: 180_000 }, () => {
  it("a transaction sent straight to the EVM RPC survives a SIGKILL of the process group the moment its hash returns; the engine dies with the sandbox", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "swapintent-engine-kill-"));
    dirs.push(dataDir);
    const first = await start(dataDir);
    const { btc, sol } = await faucetOtherEngines(first);
    const { hash, recipient, enginePid } = await sendUserTransfer(first);
    await first.kill("SIGKILL", { group: true });
    // The watchdog sees its pipe close and kills anvil: no engine outlives the sandbox.
    expect(await waitDead(enginePid)).toBe(true);

    const second = await start(dataDir);
    const { publicClient } = createEngineClients(await evmInfo(second));
    const receipt = await publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther("0.25"));
    // The Bitcoin ledger and the litesvm snapshot are written before a faucet (or any leg call) answers.
    expect(await balanceLots(second, btc)).toBe("1230000");
    expect(await balanceLots(second, sol)).toBe("4500000");
    await second.kill("SIGKILL");
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to the whole process group (a shell job's kill, Ctrl-C in a terminal) stops the sandbox cleanly: state saved, engines stopped, nothing lost",
    async (signal) => {
      const dataDir = mkdtempSync(join(tmpdir(), "swapintent-engine-stop-"));
      dirs.push(dataDir);
      const first = await start(dataDir);
      const { hash, recipient, enginePid } = await sendUserTransfer(first);
      await first.kill(signal, { group: true });
      expect(first.child.exitCode).toBe(0);
      expect(first.stderr()).not.toContain("could not save state");
      expect(await waitDead(enginePid)).toBe(true);

      const second = await start(dataDir);
      const { publicClient } = createEngineClients(await evmInfo(second));
      expect((await publicClient.getTransactionReceipt({ hash })).status).toBe("success");
      expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther("0.25"));
      await second.kill("SIGKILL");
    },
  );
});
