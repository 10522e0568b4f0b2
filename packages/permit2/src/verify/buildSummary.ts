import * as Value from "ox/Value";
import type { ChainKind } from "../address/addresses.js";
import type {
  Permit2ApprovalSummary,
  Permit2Expectation,
  Permit2FactSources,
  Permit2TypedData,
  VerifyPermit2ApprovalParameters,
} from "../types.js";

/** Which summary facts the wallet gave (and so were checked) and which are only the service's word. */
export function factSources(
  expected: Permit2Expectation,
  spenderUnchecked: boolean,
  hasDestination: boolean,
): Permit2FactSources {
  return {
    sourceToken: expected.sourceToken === undefined ? "service" : "wallet",
    sourceAmount: expected.sourceAmountLots === undefined ? "service" : "wallet",
    sourceDecimals: expected.sourceDecimals === undefined ? "service" : "wallet",
    spender: spenderUnchecked ? "service" : "wallet",
    destination: hasDestination ? "wallet" : "service",
  };
}

/**
 * The one mark a summary line carries when some of its facts are only the service's word, naming them:
 * ` [not checked by the wallet, as the service reports it: spender, token]`. Empty when the wallet checked all.
 */
export function markUnchecked(facts: readonly string[]): string {
  return facts.length === 0
    ? ""
    : ` [not checked by the wallet, as the service reports it: ${facts.join(", ")}]`;
}

/** The confirmation screen's facts and lines, from the verified typed data and witness. */
export function buildSummary(input: {
  kind: ChainKind;
  chainId: number;
  typedData: Permit2TypedData;
  deadlineSecs: number;
  quote: VerifyPermit2ApprovalParameters["quote"];
  intentId: string;
  owner: string | null;
  witness: Record<string, bigint | string>;
  sources: Permit2FactSources;
}): Permit2ApprovalSummary {
  const { kind, chainId, typedData, deadlineSecs, quote, intentId, owner, sources } = input;
  const sourceUnchecked = (
    [
      ["spender", sources.spender],
      ["token", sources.sourceToken],
      ["amount", sources.sourceAmount],
      ["decimals", sources.sourceDecimals],
    ] as const
  )
    .filter(([, source]) => source === "service")
    .map(([fact]) => fact);
  const amountLots = typedData.message.permitted.amount;
  // Equal to the wallet's decimals when it passed them (checked above); otherwise the service's word.
  const sourceDecimals = quote.sourceAmountDecimals;
  const destDecimals = quote.destAmountDecimals;
  const amountFormatted = Value.format(amountLots, sourceDecimals);
  const minDestAmountLots = input.witness.minDestAmount as bigint;
  const maxDestAmountLots = input.witness.maxDestAmount as bigint;
  const minFormatted = Value.format(minDestAmountLots, destDecimals);
  const maxFormatted = Value.format(maxDestAmountLots, destDecimals);
  const deadlineIso = new Date(deadlineSecs * 1000).toISOString();
  const token = typedData.message.permitted.token;
  const spender = typedData.message.spender;
  const recipient = input.witness.recipient as string;
  const destToken = input.witness.destToken as string;
  const destChain = Number(input.witness.destChain as bigint);
  const lines = [
    `Allow ${spender} to transfer ${amountFormatted} of token ${token} (${amountLots} lots)${markUnchecked(sourceUnchecked)}`,
    sources.destination === "wallet"
      ? `Receive at least ${minFormatted} (at most ${maxFormatted}) of ${destToken} on network ${destChain} (${minDestAmountLots} to ${maxDestAmountLots} lots of ${destDecimals} decimals)`
      : `Receive at least ${minDestAmountLots} lots (at most ${maxDestAmountLots} lots) of ${destToken} on network ${destChain}, ${minFormatted} to ${maxFormatted} with ${destDecimals} decimals${markUnchecked(["network", "token", "amounts", "decimals"])}`,
    `Recipient: ${recipient}`,
    `Valid until ${deadlineIso}`,
    `Permit2 ${typedData.domain.verifyingContract} on ${kind === "tron" ? "Tron" : "EVM"} chain ${chainId}`,
  ];
  if (owner !== null) lines.push(`Signed by ${owner}`);
  return {
    chainType: kind,
    chainId,
    permit2Address: typedData.domain.verifyingContract,
    token,
    amountLots,
    amountFormatted,
    sourceDecimals,
    spender,
    deadlineSecs,
    deadlineIso,
    minDestAmountLots,
    minDestAmountFormatted: minFormatted,
    maxDestAmountLots,
    maxDestAmountFormatted: maxFormatted,
    destDecimals,
    recipient,
    destChain,
    destToken,
    intentId,
    owner,
    sources,
    lines,
  };
}
