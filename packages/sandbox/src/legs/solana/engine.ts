import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type Address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import type { Clock, Json } from "../types.js";
import { LegRejection, type LegRejectionCode } from "../types.js";
import { describeFailure } from "./describeFailure.js";

const SNAPSHOT_FILE = "solana-litesvm.json";
const SNAPSHOT_VERSION = 1;
/** The engine version that writes snapshots (litesvm's snapshot bytes are specific to its version). */
export const LITESVM_VERSION = "1.5.0";

/** What the leg remembers besides the chain itself (persisted with the chain snapshot). */
export interface LegRecords {
  /** A counter that makes every internal transaction unique (litesvm refuses an identical transaction twice). */
  sequence: number;
  /** Per intent: signatures of the deposit, claim, refund and delivery transactions. */
  intents: Record<string, { deposit?: string; claim?: string; refund?: string; deliver?: string }>;
}

/**
 * The litesvm engine of the Solana leg: one in-process `LiteSVM` (signature verification on), kept in step with
 * the sandbox clock, and persisted after every state change when a data folder is set. litesvm 1.5 serializes its
 * full state (accounts, sysvars, transaction history, blockhash) with `toBytes`, so a restart restores balances,
 * the blockhash that pending approvals were built against, and replay protection.
 */
export class SolanaEngine {
  svm: LiteSVM;
  records: LegRecords = { sequence: 0, intents: {} };
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    svm: LiteSVM,
    private readonly clock: Clock,
    private readonly dataDir: string | undefined,
  ) {
    this.svm = svm;
  }

  /** Open the engine from `dataDir` when a snapshot is there; otherwise a fresh chain (`restored: false`). */
  static async open(
    clock: Clock,
    dataDir: string | undefined,
  ): Promise<{ engine: SolanaEngine; restored: boolean }> {
    if (dataDir !== undefined) {
      const text = await readFile(join(dataDir, SNAPSHOT_FILE), "utf8").catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return undefined;
          throw error;
        },
      );
      if (text !== undefined) {
        const parsed = JSON.parse(text) as {
          version: number;
          litesvm?: string;
          records: LegRecords;
          svm: string;
        };
        if (parsed.version !== SNAPSHOT_VERSION)
          throw new Error(`unknown Solana snapshot version ${parsed.version}`);
        let svm: LiteSVM;
        try {
          svm = LiteSVM.fromBytes(new Uint8Array(Buffer.from(parsed.svm, "base64"))).withSigverify(true);
        } catch (cause) {
          throw new Error(
            `the Solana snapshot ${join(dataDir, SNAPSHOT_FILE)} cannot be read by litesvm ${LITESVM_VERSION} (written by ${parsed.litesvm ?? "an unknown version"}); delete it to start a fresh chain`,
            { cause },
          );
        }
        const engine = new SolanaEngine(svm, clock, dataDir);
        engine.records = parsed.records;
        engine.syncClock();
        return { engine, restored: true };
      }
    }
    const svm = new LiteSVM().withNativeMints().withSigverify(true);
    const engine = new SolanaEngine(svm, clock, dataDir);
    engine.syncClock();
    return { engine, restored: false };
  }

  /** Set the Clock sysvar's unix timestamp to the sandbox clock; returns the Clock sysvar's timestamp. */
  syncClock(): bigint {
    const clock = this.svm.getClock();
    const now = BigInt(Math.floor(this.clock.nowMs() / 1000));
    if (clock.unixTimestamp !== now) {
      clock.unixTimestamp = now;
      this.svm.setClock(clock);
    }
    return this.svm.getClock().unixTimestamp;
  }

  /** Write the snapshot atomically (temp file + rename); later calls wait for earlier ones. */
  save(): Promise<void> {
    const dataDir = this.dataDir;
    if (dataDir === undefined) return Promise.resolve();
    const body = JSON.stringify({
      version: SNAPSHOT_VERSION,
      litesvm: LITESVM_VERSION,
      records: this.records as unknown as Json,
      svm: Buffer.from(this.svm.toBytes()).toString("base64"),
    });
    this.saving = this.saving.then(async () => {
      await mkdir(dataDir, { recursive: true });
      const target = join(dataDir, SNAPSHOT_FILE);
      const temp = `${target}.${process.pid}.tmp`;
      await writeFile(temp, body);
      await rename(temp, target);
    });
    return this.saving;
  }

  /** A v0 transaction paid by `feePayer`, against the current blockhash, signatures empty. */
  compile(feePayer: Address, instructions: Instruction[]): Transaction {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(feePayer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: 0n },
          m,
        ),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    return compileTransaction(message);
  }

  /**
   * Execute a transaction. An identical transaction already in litesvm's history (a retry after a crash) counts
   * as done when that one succeeded. Failure -> `LegRejection` (`code`).
   */
  execute(tx: Transaction, code: LegRejectionCode = "TRANSACTION_FAILED"): string {
    this.syncClock();
    const signature = getSignatureFromTransaction(tx);
    const previous = this.svm.getTransaction(signature);
    if (previous !== null && !(previous instanceof FailedTransactionMetadata)) return signature;
    runChecked({ code, failed: "failed", send: () => this.svm.sendTransaction(tx) });
    return signature;
  }

  /** Simulate a transaction without changing state. Failure -> `LegRejection` (`code`). */
  simulate(tx: Transaction, code: LegRejectionCode): void {
    this.syncClock();
    runChecked({ code, failed: "would fail", send: () => this.svm.simulateTransaction(tx) });
  }

  /** Compile, sign (fee payer first) and execute instructions; the next sequence number keeps it unique. */
  async run(
    feePayer: KeyPairSigner,
    instructions: Instruction[],
    extraSigners: KeyPairSigner[] = [],
  ): Promise<string> {
    const tx = await partiallySignTransaction(
      [feePayer.keyPair, ...extraSigners.map((s) => s.keyPair)],
      this.compile(feePayer.address, instructions),
    );
    return this.execute(tx);
  }

  /** The lamports of an account (0 when it does not exist). */
  lamports(address: Address): bigint {
    return this.svm.getBalance(address) ?? 0n;
  }
}

/** Send or simulate on litesvm; a refusal (thrown) or a failed result becomes a `LegRejection` with `code`. */
function runChecked({
  code,
  failed,
  send,
}: {
  code: LegRejectionCode;
  /** How the message words a failed result: `failed` (executed) or `would fail` (simulated). */
  failed: string;
  send: () => ReturnType<LiteSVM["sendTransaction"] | LiteSVM["simulateTransaction"]>;
}): void {
  let result: ReturnType<typeof send>;
  try {
    result = send();
  } catch (cause) {
    throw new LegRejection(code, `the Solana transaction was refused: ${String(cause)}`, { cause });
  }
  if (result instanceof FailedTransactionMetadata)
    throw new LegRejection(code, `the Solana transaction ${failed}: ${describeFailure(result)}`);
}
