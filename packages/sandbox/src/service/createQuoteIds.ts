import { createHmac, randomBytes } from "node:crypto";

/** Quote ids that carry their own expiry (see {@link createQuoteIds}). */
export interface QuoteIds {
  /** A new quote id for `partnerId`, expiring at `expiryMs`. */
  create(request: { expiryMs: number; partnerId: string }): string;
  /**
   * When `id` is a quote id this sandbox made for `partnerId`: its expiry, unix ms; otherwise undefined (anyone
   * else's id, a made-up one, or one of a database another master seed made).
   */
  readExpiry(request: { id: string; partnerId: string }): number | undefined;
}

const TAG_BYTES = 4;

/**
 * Quote ids (UUID version 8, RFC 9562) that say when they expire, so a quote pruned from the database after it
 * expired is still answered "expired", not "unknown": bytes 0-5 hold the expiry (unix ms), 42 bits are random, and
 * the last 4 bytes are an HMAC-SHA256 tag, keyed from the master seed, over the rest and the partner, so only the
 * partner that asked for the quote learns that an id is a quote of this sandbox's.
 *
 * @example
 * const ids = createQuoteIds({ masterSeed });
 * const id = ids.create({ expiryMs: Date.now() + 30_000, partnerId });
 * ids.readExpiry({ id, partnerId }); // the expiry
 */
export function createQuoteIds({ masterSeed }: { masterSeed: Uint8Array }): QuoteIds {
  const key = createHmac("sha256", masterSeed).update("swapintent/sandbox/quote-id").digest();
  const tagOf = (head: Buffer, partnerId: string) =>
    createHmac("sha256", key).update(head).update(partnerId).digest().subarray(0, TAG_BYTES);
  return {
    create({ expiryMs, partnerId }) {
      const bytes = Buffer.alloc(16);
      bytes.writeUIntBE(expiryMs, 0, 6);
      randomBytes(6).copy(bytes, 6);
      bytes[6] = 0x80 | (bytes[6]! & 0x0f); // version 8
      bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10
      tagOf(bytes.subarray(0, 16 - TAG_BYTES), partnerId).copy(bytes, 16 - TAG_BYTES);
      const hex = bytes.toString("hex");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    readExpiry({ id, partnerId }) {
      const hex = id.replace(/-/g, "");
      if (!/^[0-9a-f]{32}$/i.test(hex)) return undefined;
      const bytes = Buffer.from(hex, "hex");
      const tag = tagOf(bytes.subarray(0, 16 - TAG_BYTES), partnerId);
      if (!tag.equals(bytes.subarray(16 - TAG_BYTES))) return undefined;
      return bytes.readUIntBE(0, 6);
    },
  };
}
