/** One schema change, applied once, in order, inside a transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The sandbox schema. Never edit an applied migration: add a new one.
 * Times are unix milliseconds of the sandbox clock (bigint); amounts are decimal strings of lots.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial",
    sql: `
CREATE TABLE meta (
  key text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE quotes (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  wire jsonb NOT NULL,
  expiry_ms bigint NOT NULL,
  retail_user_id text,
  used_by_intent uuid,
  created_at_ms bigint NOT NULL
);
CREATE TABLE intents (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  quote_id uuid NOT NULL UNIQUE REFERENCES quotes(id),
  swap_id uuid NOT NULL UNIQUE,
  status text NOT NULL,
  pending_step text,
  source_chain integer NOT NULL,
  source_token text NOT NULL,
  source_amount_lots text NOT NULL,
  source_amount_decimals integer NOT NULL,
  dest_chain integer NOT NULL,
  dest_token text NOT NULL,
  dest_amount_decimals integer NOT NULL,
  min_dest_amount_lots text NOT NULL,
  max_dest_amount_lots text NOT NULL,
  user_source_address text NOT NULL,
  user_source_public_key text,
  user_destination_address text NOT NULL,
  refund_address text NOT NULL,
  retail_user_id text,
  secret text NOT NULL,
  secret_hash text NOT NULL,
  deadline_secs bigint NOT NULL,
  approval_mechanism text NOT NULL,
  params_to_sign jsonb NOT NULL,
  leg_data jsonb NOT NULL,
  proxy_address text NOT NULL,
  delivered_amount_lots text,
  user_deposit_tx text,
  fulfill_tx text,
  swap_tx text,
  refund_tx text,
  last_error text,
  created_at_ms bigint NOT NULL,
  updated_at_ms bigint NOT NULL,
  user_deposited_at_ms bigint,
  kyc_requested_at_ms bigint,
  fulfilled_at_ms bigint,
  swapped_at_ms bigint,
  refunded_at_ms bigint
);
CREATE INDEX intents_work ON intents (seq) WHERE pending_step IS NOT NULL
  OR status IN ('Initiated', 'ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested');
CREATE INDEX intents_source_wallet ON intents (lower(user_source_address));
CREATE INDEX intents_dest_wallet ON intents (lower(user_destination_address));
CREATE INDEX intents_retail ON intents (retail_user_id);
`,
  },
  {
    version: 2,
    name: "partner scoping",
    // The partner that created a quote or intent (a hash of its API key or signing key id, never the key).
    // Rows written before this migration keep NULL: they predate scoping and stay visible to every partner.
    sql: `
ALTER TABLE quotes ADD COLUMN partner_id text;
ALTER TABLE intents ADD COLUMN partner_id text;
CREATE INDEX intents_partner ON intents (partner_id, seq);
`,
  },
  {
    // The resolver's fair queue. Idempotent (IF NOT EXISTS) and independent of version 2.
    version: 3,
    name: "resolver-queue",
    sql: `
ALTER TABLE intents ADD COLUMN IF NOT EXISTS next_attempt_ms bigint NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS intents_ready ON intents (next_attempt_ms, seq)
  WHERE pending_step IS NOT NULL OR status IN ('ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested');
CREATE INDEX IF NOT EXISTS intents_expiry ON intents (deadline_secs)
  WHERE status IN ('Initiated', 'ApprovalAdded') AND pending_step IS NULL;
`,
  },
  {
    // Expired quotes no intent used are pruned by the resolver (see Store.pruneQuotes): the oldest first, by index.
    version: 4,
    name: "quote-pruning",
    sql: `
CREATE INDEX IF NOT EXISTS quotes_unused_expiry ON quotes (expiry_ms) WHERE used_by_intent IS NULL;
`,
  },
  {
    // The engines (anvil state, UTXO ledger, litesvm: a data dir's, see readEnginesId) that hold each intent's funds.
    // NULL for intents stored before: the first sandbox that starts on the database takes them as its own.
    version: 5,
    name: "engine-identity",
    sql: `
ALTER TABLE intents ADD COLUMN IF NOT EXISTS engines_id text;
`,
  },
];
