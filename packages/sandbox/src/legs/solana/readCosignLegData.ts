import { readLegData } from "../readLegData.js";
import type { Json } from "../types.js";
import type { CosignLegData } from "./types.js";

/** An intent's stored Solana `legData` (it must hold the message `buildApproval` built): `LEG_DATA_INVALID` otherwise. */
export function readCosignLegData(legData: Json): CosignLegData {
  return readLegData<CosignLegData>({
    legData,
    key: "message",
    reason: "the intent has no Solana approval data",
  });
}
