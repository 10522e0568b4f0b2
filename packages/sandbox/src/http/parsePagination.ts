import { createApiError, type ErrorEntity } from "./apiError.js";

/** Default and maximum page size. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** Parse `limit` (1..100, default 20) and `offset` (>= 0, default 0) from query values; 400 otherwise. */
export function parsePagination({
  limit,
  offset,
  entity,
}: {
  limit: string | undefined;
  offset: string | undefined;
  entity: ErrorEntity;
}): { limit: number; offset: number } {
  const bad = (message: string) =>
    createApiError({ status: 400, code: "INVALID_PAGINATION", message, entity });
  let parsedLimit = DEFAULT_LIMIT;
  if (limit !== undefined) {
    if (!/^\d{1,6}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT)
      throw bad(`\`limit\` must be an integer from 1 to ${MAX_LIMIT}.`);
    parsedLimit = Number(limit);
  }
  let parsedOffset = 0;
  if (offset !== undefined) {
    if (!/^\d{1,9}$/.test(offset)) throw bad("`offset` must be an integer >= 0.");
    parsedOffset = Number(offset);
  }
  return { limit: parsedLimit, offset: parsedOffset };
}
