import { isBitcoinError } from "@swapintent/bitcoin";
import { type ClientErrorCode, isClientError } from "@swapintent/client";
import { isPermit2Error } from "@swapintent/permit2";
import { isSolanaCosignError } from "@swapintent/solana";

/** What a swap screen does next. */
export type NextStep =
  | "fix-input" // our own input or configuration is wrong: a bug to fix, not a thing to retry
  | "new-quote" // the quote is gone or no longer acceptable: ask for a new one, show it, ask again
  | "retry-later" // the service or the network is unavailable: retry with backoff (the client already did)
  | "check-status" // the request may have landed: read the intent's status before doing anything else
  | "user-cancelled" // the user or the app stopped it: nothing was signed
  | "refuse"; // what the service asks differs from what the user was quoted: never sign, report it

/** What to do after a failed swap step, by the error's stable `code` (its message is for logs, not for logic). */
export function getNextStep({ error }: { error: unknown }): NextStep {
  if (isClientError(error)) return clientNextStep[error.code];
  if (isPermit2Error(error) || isBitcoinError(error) || isSolanaCosignError(error)) {
    const { code } = error;
    if (code.endsWith("_SIGNING_ABORTED") || code === "BTC_WALLET_REJECTED") return "user-cancelled";
    if (code.endsWith("_EXPECTED_INVALID") || code.endsWith("_PARAMETER_INVALID")) return "fix-input";
    if (code.endsWith("_SIGNING_FAILED")) return "user-cancelled"; // the wallet refused or failed; `cause` says why
    if (code === "PERMIT2_DEADLINE_PASSED" || code === "PERMIT2_MIN_AMOUNT_TOO_LOW") return "new-quote";
    if (code === "PERMIT2_ALLOWANCE_INSUFFICIENT") return "fix-input"; // send `details.approveTransaction` first
    return "refuse"; // every other signer code: a field differs from the quote, the intent or the wallet's facts
  }
  throw error; // not ours: a bug in the calling code
}

/** Every client code, mapped once: the compiler refuses this object if a code is missing or unknown. */
const clientNextStep: Record<ClientErrorCode, NextStep> = {
  INVALID_INPUT: "fix-input", // a parameter failed a local check; nothing was sent
  INVALID_OPTIONS: "fix-input", // createSwapIntentClient options or signing keys are unusable
  QUOTE_EXPIRED: "new-quote", // checked before createIntent sends anything
  HTTP_ERROR: "retry-later",
  BAD_REQUEST: "fix-input", // 400: for example a token the network does not list
  UNAUTHORIZED: "fix-input", // 401: the API key or the request signature
  FORBIDDEN: "fix-input",
  NOT_FOUND: "new-quote", // 404: an unknown (or another partner's) quote or intent
  UNPROCESSABLE: "new-quote", // 422: a business rule: quote used or expired, amount out of range, state
  RATE_LIMITED: "retry-later", // 429: `details.retryAfterMs` says when
  SERVER_ERROR: "retry-later",
  TIMEOUT: "check-status", // a POST may have been stored: read the status before sending it again
  ABORTED: "user-cancelled",
  NETWORK_ERROR: "check-status",
  REDIRECT_REFUSED: "fix-input", // the base URL redirects: point it at the service itself
  RESPONSE_TOO_LARGE: "refuse",
  RESPONSE_INVALID: "refuse", // the service answered something that is not the API
  WAIT_TIMEOUT: "check-status", // the swap is still running: keep watching it
  SIGNING_FAILED: "fix-input", // WebCrypto could not sign the request: the key
};
