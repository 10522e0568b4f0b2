import { afterEach, describe, expect, it } from "vitest";
import { snapshotInput } from "./snapshotInput.js";

const polluted = ["amount", "intentId", "__proto__"] as const;

describe("snapshotInput: the copy signing works on is the caller's data, whatever Object.prototype holds", () => {
  afterEach(() => {
    for (const key of polluted.slice(0, 2)) delete (Object.prototype as Record<string, unknown>)[key];
  });

  it("copies each own key as an own data property even when Object.prototype has a setter of that name", () => {
    let intercepted = 0;
    for (const key of polluted.slice(0, 2))
      Object.defineProperty(Object.prototype, key, {
        configurable: true,
        set() {
          intercepted++;
        },
        get() {
          return "0xstranger";
        },
      });
    const out = snapshotInput({ quote: { amount: "1", intentId: "0xabc" } }) as {
      quote: Record<string, unknown>;
    };
    expect(intercepted).toBe(0);
    expect(Object.getOwnPropertyDescriptor(out.quote, "amount")?.value).toBe("1");
    expect(Object.getOwnPropertyDescriptor(out.quote, "intentId")?.value).toBe("0xabc");
  });

  it("keeps a `__proto__` key as an own key, never as the copy's prototype", () => {
    const input = JSON.parse('{"__proto__": {"spender": "0xstranger"}, "amount": "1"}') as object;
    const out = snapshotInput(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect((out as { spender?: unknown }).spender).toBeUndefined();
  });
});
