/**
 * A last line of defence for the demo's output: every secret the demo creates or reads (private keys,
 * API keys) is registered here, and every line it prints passes through `redact`. The demo never prints
 * a secret on purpose; this makes sure it cannot do it by accident either.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  /** Registers a secret (and its 0x-less / 0x-prefixed twin) so it never appears in output. */
  add(secret: string | Uint8Array): void {
    const text = typeof secret === "string" ? secret : Buffer.from(secret).toString("hex");
    if (text.length < 8) return;
    this.#secrets.add(text);
    if (/^0x[0-9a-fA-F]+$/.test(text)) this.#secrets.add(text.slice(2));
    else if (/^[0-9a-fA-F]+$/.test(text)) this.#secrets.add(`0x${text}`);
  }

  /** Returns `text` with every registered secret replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join("[redacted]");
      const lower = secret.toLowerCase();
      if (lower !== secret && out.toLowerCase().includes(lower)) {
        out = out.replace(new RegExp(lower.replace(/[^0-9a-z]/g, ""), "gi"), "[redacted]");
      }
    }
    return out;
  }
}
