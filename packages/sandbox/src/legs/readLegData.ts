import type { Json } from "./types.js";
import { LegRejection } from "./types.js";

/**
 * An intent's stored `legData` as the leg's own record type, once it is a JSON object whose `key` is a string
 * (the field every later step needs); otherwise a `LEG_DATA_INVALID` rejection with `reason`. Shared by every leg:
 * the core hands back whatever it stored, and a leg reads it before it touches its engine.
 */
export function readLegData<TLegData>({
  legData,
  key,
  reason,
}: {
  legData: Json;
  key: string;
  reason: string;
}): TLegData {
  if (
    legData === null ||
    typeof legData !== "object" ||
    Array.isArray(legData) ||
    typeof legData[key] !== "string"
  )
    throw new LegRejection("LEG_DATA_INVALID", reason);
  return legData as unknown as TLegData;
}

/** A leg's own record (plain JSON fields only) as the `legData` the core stores. */
export function toLegDataJson<TLegData extends object>(data: TLegData): Json {
  return data as unknown as Json;
}
