import { readLegData } from "../../readLegData.js";
import type { Json } from "../../types.js";
import type { Permit2LegData } from "./types.js";

/** An intent's stored permit2 `legData` (it must hold the nonce `buildApproval` chose): `LEG_DATA_INVALID` otherwise. */
export function readPermit2LegData(legData: Json): Permit2LegData {
  return readLegData<Permit2LegData>({
    legData,
    key: "nonce",
    reason: "missing permit2 nonce for this intent",
  });
}
