-- The wallet (issue 5): deposit addresses, deposit requests, the withdrawal address book,
-- withdrawals and bank cards. Money moves only through the ledger: a deposit's credit and a
-- withdrawal's hold and payout are journal entries named here by id.

-- A deposit screenshot is an upload too, read by finance staff (verification photos by compliance).
ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check CHECK (purpose IN ('verification', 'deposit_proof'));

-- Hands out deposit address indexes per network: derivation index 0/i of the operator's xpub, or
-- position i of the configured address list. A row lock on the counter serialises assignment.
CREATE TABLE deposit_address_counters (
  network     text PRIMARY KEY CHECK (network IN ('bitcoin', 'ethereum', 'tron')),
  next_index  integer NOT NULL DEFAULT 0 CHECK (next_index >= 0)
);
INSERT INTO deposit_address_counters (network) VALUES ('bitcoin'), ('ethereum'), ('tron');

CREATE TABLE deposit_addresses (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id           bigint NOT NULL REFERENCES users (id),
  network           text NOT NULL CHECK (network IN ('bitcoin', 'ethereum', 'tron')),
  address           text NOT NULL CHECK (length(address) <= 120),
  source            text NOT NULL CHECK (source IN ('xpub', 'list', 'demo')),
  address_index     integer NOT NULL CHECK (address_index >= 0),
  created_at        timestamptz NOT NULL,
  UNIQUE (user_id, network),
  UNIQUE (network, address)
);

CREATE TABLE deposits (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id                 bigint NOT NULL REFERENCES users (id),
  channel                 text NOT NULL CHECK (channel IN ('USDT-TRC20', 'USDT-ERC20', 'BTC', 'ETH')),
  asset                   text NOT NULL REFERENCES ledger_assets (code),
  network                 text NOT NULL CHECK (network IN ('bitcoin', 'ethereum', 'tron')),
  address                 text NOT NULL,
  amount_minor            numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  -- USDT value when reported (decides whether two staff approvals are needed).
  usdt_value_minor        numeric(78, 0) NOT NULL CHECK (usdt_value_minor >= 0),
  tx_hash                 text NOT NULL CHECK (length(tx_hash) <= 100),
  proof_upload_id         bigint REFERENCES uploads (id),
  status                  text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  review                  text NOT NULL CHECK (review IN ('staff', 'chain')),
  approvals_required      smallint NOT NULL CHECK (approvals_required IN (1, 2)),
  first_approved_by       bigint REFERENCES staff (id),
  first_approved_at       timestamptz,
  decided_by              bigint REFERENCES staff (id),
  decided_at              timestamptz,
  reject_reason           text CHECK (length(reject_reason) <= 500),
  confirmations_seen      integer,
  confirmations_required  integer,
  chain_checked_at        timestamptz,
  entry_id                bigint REFERENCES journal_entries (id),
  created_at              timestamptz NOT NULL,
  CHECK ((status = 'approved') = (entry_id IS NOT NULL))
);
-- A transaction is credited at most once: while one request of it is pending or approved, no
-- other may be made (a rejected one may be reported again, e.g. with the right amount).
CREATE UNIQUE INDEX deposits_tx_hash_once ON deposits (network, tx_hash) WHERE status <> 'rejected';
CREATE INDEX deposits_of_user ON deposits (user_id, id);
CREATE INDEX deposits_by_status ON deposits (status, id);

CREATE TABLE withdrawal_addresses (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id),
  network     text NOT NULL CHECK (network IN ('bitcoin', 'ethereum', 'tron')),
  address     text NOT NULL CHECK (length(address) <= 120),
  label       text NOT NULL DEFAULT '' CHECK (length(label) <= 40),
  created_at  timestamptz NOT NULL,
  -- Removed addresses stay for the withdrawals that name them.
  removed_at  timestamptz
);
CREATE UNIQUE INDEX withdrawal_addresses_once ON withdrawal_addresses (user_id, network, address) WHERE removed_at IS NULL;

CREATE TABLE withdrawals (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id             bigint NOT NULL REFERENCES users (id),
  channel             text NOT NULL CHECK (channel IN ('USDT-TRC20', 'USDT-ERC20', 'BTC', 'ETH')),
  asset               text NOT NULL REFERENCES ledger_assets (code),
  network             text NOT NULL CHECK (network IN ('bitcoin', 'ethereum', 'tron')),
  address_id          bigint NOT NULL REFERENCES withdrawal_addresses (id),
  address             text NOT NULL,
  amount_minor        numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  fee_minor           numeric(78, 0) NOT NULL CHECK (fee_minor >= 0),
  usdt_value_minor    numeric(78, 0) NOT NULL CHECK (usdt_value_minor >= 0),
  -- The recorded tick that priced a BTC or ETH withdrawal for the daily limit (null for USDT).
  price_tick_id       bigint,
  hold_id             bigint NOT NULL REFERENCES ledger_holds (id),
  status              text NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'approved', 'completed', 'rejected', 'failed', 'cancelled')),
  approvals_required  smallint NOT NULL CHECK (approvals_required IN (1, 2)),
  first_approved_by   bigint REFERENCES staff (id),
  first_approved_at   timestamptz,
  decided_by          bigint REFERENCES staff (id),
  decided_at          timestamptz,
  reject_reason       text CHECK (length(reject_reason) <= 500),
  tx_hash             text CHECK (length(tx_hash) <= 100),
  completed_by        bigint REFERENCES staff (id),
  completed_at        timestamptz,
  closing_entry_id    bigint REFERENCES journal_entries (id),
  created_at          timestamptz NOT NULL,
  CHECK ((status = 'completed') = (tx_hash IS NOT NULL)),
  CHECK ((status IN ('pending', 'approved')) = (closing_entry_id IS NULL))
);
CREATE UNIQUE INDEX withdrawals_tx_hash_once ON withdrawals (network, tx_hash) WHERE tx_hash IS NOT NULL;
CREATE INDEX withdrawals_of_user ON withdrawals (user_id, created_at);
CREATE INDEX withdrawals_open ON withdrawals (id) WHERE status IN ('pending', 'approved');
CREATE INDEX withdrawals_by_status ON withdrawals (status, id);

CREATE TABLE bank_cards (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES users (id),
  real_name     text NOT NULL CHECK (length(real_name) <= 100),
  phone         text NOT NULL CHECK (length(phone) <= 32),
  bank_name     text NOT NULL CHECK (length(bank_name) <= 100),
  bank_account  text NOT NULL CHECK (bank_account ~ '^[0-9]{9,18}$'),
  ifsc          text NOT NULL CHECK (ifsc ~ '^[A-Z]{4}0[A-Z0-9]{6}$'),
  email         text NOT NULL CHECK (length(email) <= 254),
  created_at    timestamptz NOT NULL,
  removed_at    timestamptz
);
CREATE UNIQUE INDEX bank_cards_once ON bank_cards (user_id, ifsc, bank_account) WHERE removed_at IS NULL;
