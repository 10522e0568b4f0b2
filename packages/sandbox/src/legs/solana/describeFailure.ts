import type { FailedTransactionMetadata } from "litesvm";

/** Names of litesvm's `TransactionErrorFieldless` (a `const enum` in its typings, so the names are listed here). */
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
];

/** A short human description of a failed litesvm transaction: the error name and the last program log lines. */
export function describeFailure(failure: FailedTransactionMetadata): string {
  const err = failure.err();
  const name =
    typeof err === "number" ? (TRANSACTION_ERRORS[err] ?? `TransactionError ${err}`) : err.toString();
  const logs = failure
    .meta()
    .logs()
    .filter((line) => line.includes("Error") || line.includes("failed"))
    .slice(-2);
  return logs.length > 0 ? `${name} (${logs.join("; ")})` : name;
}
