-- The double-entry ledger (issue 3): assets, accounts with available and frozen parts, journal
-- entries whose postings sum to zero per asset, and holds. Amounts are integers of minor units;
-- numeric(78,0) because an 18-decimal asset overflows bigint at 9.2 units.
CREATE TABLE ledger_assets (
  code   text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{2,12}$'),
  scale  smallint NOT NULL CHECK (scale BETWEEN 0 AND 18)
);
INSERT INTO ledger_assets (code, scale) VALUES ('USDT', 6), ('BTC', 8), ('ETH', 18);

CREATE TABLE ledger_accounts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id          bigint REFERENCES users (id),
  -- User account types of spec section 3, or a platform account.
  kind             text NOT NULL CHECK (kind IN (
                     'coin', 'fiat', 'innovation', 'defi', 'leveraged', 'options',
                     'treasury', 'fees', 'options_house', 'insurance_fund', 'hot_wallet')),
  -- Distinguishes platform accounts of one kind, e.g. the hot wallet of each chain.
  label            text NOT NULL DEFAULT '' CHECK (length(label) <= 32),
  asset            text NOT NULL REFERENCES ledger_assets (code),
  allow_negative   boolean NOT NULL DEFAULT false,
  available_minor  numeric(78, 0) NOT NULL DEFAULT 0,
  frozen_minor     numeric(78, 0) NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) = (kind IN ('treasury', 'fees', 'options_house', 'insurance_fund', 'hot_wallet'))),
  -- Only platform accounts (the treasury) may be marked to go negative; a user's never can.
  CHECK (NOT allow_negative OR user_id IS NULL),
  CHECK (allow_negative OR available_minor >= 0),
  CHECK (frozen_minor >= 0)
);
CREATE UNIQUE INDEX ledger_accounts_of_user ON ledger_accounts (user_id, kind, asset) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_of_platform ON ledger_accounts (kind, label, asset) WHERE user_id IS NULL;

CREATE TABLE journal_entries (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reason           text NOT NULL CHECK (reason ~ '^[a-z][a-z0-9_.]{1,63}$'),
  reference_type   text CHECK (length(reference_type) <= 32),
  reference_id     text CHECK (length(reference_id) <= 64),
  idempotency_key  text UNIQUE CHECK (length(idempotency_key) <= 200),
  -- Fingerprint of the postings, so a replay with other postings under the same key is refused.
  postings_hash    text NOT NULL,
  memo             text CHECK (length(memo) <= 500),
  created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE postings (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entry_id      bigint NOT NULL REFERENCES journal_entries (id),
  account_id    bigint NOT NULL REFERENCES ledger_accounts (id),
  asset         text NOT NULL REFERENCES ledger_assets (code),
  bucket        text NOT NULL CHECK (bucket IN ('available', 'frozen')),
  amount_minor  numeric(78, 0) NOT NULL CHECK (amount_minor <> 0)
);
CREATE INDEX postings_of_account ON postings (account_id, entry_id);
CREATE INDEX postings_of_entry ON postings (entry_id);

CREATE TABLE ledger_holds (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id       bigint NOT NULL REFERENCES ledger_accounts (id),
  amount_minor     numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'posted', 'released')),
  reference_type   text NOT NULL CHECK (length(reference_type) <= 32),
  reference_id     text NOT NULL CHECK (length(reference_id) <= 64),
  placed_entry_id  bigint NOT NULL REFERENCES journal_entries (id),
  closed_entry_id  bigint REFERENCES journal_entries (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  closed_at        timestamptz
);
-- One open hold per thing held (one withdrawal, one escrow order...).
CREATE UNIQUE INDEX ledger_holds_open_reference ON ledger_holds (reference_type, reference_id) WHERE status = 'open';
CREATE INDEX ledger_holds_of_account ON ledger_holds (account_id) WHERE status = 'open';

-- The journal is append-only: history is corrected by new entries, never by editing old ones.
CREATE FUNCTION journal_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the journal is append-only';
END;
$$;
CREATE TRIGGER journal_entries_no_change BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION journal_is_append_only();
CREATE TRIGGER postings_no_change BEFORE UPDATE OR DELETE ON postings
  FOR EACH ROW EXECUTE FUNCTION journal_is_append_only();
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION journal_is_append_only();
CREATE TRIGGER postings_no_truncate BEFORE TRUNCATE ON postings
  FOR EACH STATEMENT EXECUTE FUNCTION journal_is_append_only();
