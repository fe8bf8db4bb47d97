-- Swap (flash exchange) quotes (issue 3). A quote fixes a rate for a short time; executing it posts
-- one journal entry and marks it used, so a quote moves money at most once. The ticks the rate
-- came from are kept as they were shown (id, price, time, source), so the user can check the rate.
CREATE TABLE swap_quotes (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id               bigint NOT NULL REFERENCES users (id),
  account_kind          text NOT NULL CHECK (account_kind IN ('coin', 'fiat', 'innovation', 'defi', 'leveraged', 'options')),
  from_asset            text NOT NULL REFERENCES ledger_assets (code),
  to_asset              text NOT NULL REFERENCES ledger_assets (code),
  amount_minor          numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  -- Rates are `to` per one `from` at 12 decimals (domain RATE_SCALE), stored as integers.
  mid_rate_minor        numeric(78, 0) NOT NULL CHECK (mid_rate_minor > 0),
  rate_minor            numeric(78, 0) NOT NULL CHECK (rate_minor > 0 AND rate_minor <= mid_rate_minor),
  spread_bps            integer NOT NULL CHECK (spread_bps BETWEEN 0 AND 9999),
  fee_bps               integer NOT NULL CHECK (fee_bps BETWEEN 0 AND 9999),
  gross_receive_minor   numeric(78, 0) NOT NULL CHECK (gross_receive_minor > 0),
  fee_minor             numeric(78, 0) NOT NULL CHECK (fee_minor >= 0),
  receive_minor         numeric(78, 0) NOT NULL CHECK (receive_minor > 0 AND receive_minor + fee_minor = gross_receive_minor),
  ticks                 jsonb NOT NULL,
  created_at            timestamptz NOT NULL,
  expires_at            timestamptz NOT NULL CHECK (expires_at > created_at),
  executed_entry_id     bigint REFERENCES journal_entries (id),
  executed_at           timestamptz,
  CHECK (from_asset <> to_asset),
  CHECK ((executed_entry_id IS NULL) = (executed_at IS NULL))
);
CREATE INDEX swap_quotes_unused_by_age ON swap_quotes (created_at) WHERE executed_entry_id IS NULL;
