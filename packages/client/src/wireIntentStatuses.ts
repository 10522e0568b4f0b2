/**
 * Intent states as the spec spells them on the wire, in lifecycle order (`RefundRquested` is the spec's spelling).
 * A service implementation stores and sends exactly these; the client parses them into `KnownIntentStatus`.
 */
export const wireIntentStatuses = [
  "Initiated",
  "ApprovalAdded",
  "Accepted",
  "Declined",
  "UserDeposited",
  "Fulfilled",
  "Expired",
  "RefundRquested",
  "Refunded",
] as const;

/** One of {@link wireIntentStatuses}: a status as the spec spells it on the wire. */
export type WireIntentStatus = (typeof wireIntentStatuses)[number];
