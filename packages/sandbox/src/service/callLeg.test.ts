import { describe, expect, it } from "vitest";
import { getErrorStatus } from "../http/apiError.js";
import { LegRejection } from "../legs/types.js";
import { callLeg } from "./callLeg.js";
import { ServiceError } from "./serviceError.js";

describe("callLeg", () => {
  it("returns what the leg returns", async () => {
    await expect(callLeg({ entity: "Intent", call: async () => ({ txHash: "0xabc" }) })).resolves.toEqual({
      txHash: "0xabc",
    });
  });

  it("turns a LegRejection into a 422 naming the leg's code and reason under the given entity", async () => {
    const rejection = new LegRejection("SIGNATURE_INVALID", "the signature does not recover to the owner");
    const error = await callLeg({
      entity: "Approval",
      call: async () => {
        throw rejection;
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(getErrorStatus(error as ServiceError)).toBe(422);
    expect(error).toMatchObject({
      kind: "rejected",
      code: "SIGNATURE_INVALID",
      entity: "Approval",
      shortMessage: "the signature does not recover to the owner",
      cause: rejection,
    });
  });

  it("lets any other error through unchanged", async () => {
    const crash = new Error("engine went away");
    await expect(
      callLeg({
        entity: "Other",
        call: async () => {
          throw crash;
        },
      }),
    ).rejects.toBe(crash);
  });
});
