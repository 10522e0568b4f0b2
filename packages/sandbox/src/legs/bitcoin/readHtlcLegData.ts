import { readLegData } from "../readLegData.js";
import type { Json } from "../types.js";
import type { HtlcLegData } from "./types.js";

/** An intent's stored Bitcoin `legData` (it must hold the deposit PSBT `buildApproval` built): `LEG_DATA_INVALID` otherwise. */
export function readHtlcLegData(legData: Json): HtlcLegData {
  return readLegData<HtlcLegData>({
    legData,
    key: "psbt",
    reason: "the intent carries no Bitcoin deposit data",
  });
}
