-- Transfers to another user (issue 19). The money moves in one journal entry (reason
-- `transfer.user`: the sender's coin account pays amount + fee, the recipient's receives the amount,
-- the fee account the fee); this row is what both users' lists and the sender's daily withdrawal
-- count and limit read. Written in the entry's transaction; never changed.
CREATE TABLE user_transfers (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sender_id         bigint NOT NULL REFERENCES users (id),
  recipient_id      bigint NOT NULL REFERENCES users (id),
  asset             text NOT NULL REFERENCES ledger_assets (code),
  amount_minor      numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  fee_minor         numeric(78, 0) NOT NULL CHECK (fee_minor > 0),
  -- The USDT value counted against the sender's daily limit (rounded up), and the tick it used.
  usdt_value_minor  numeric(78, 0) NOT NULL CHECK (usdt_value_minor >= 0),
  price_tick_id     bigint,
  entry_id          bigint NOT NULL UNIQUE REFERENCES journal_entries (id),
  created_at        timestamptz NOT NULL,
  CHECK (sender_id <> recipient_id)
);
CREATE INDEX user_transfers_sent ON user_transfers (sender_id, created_at DESC);
CREATE INDEX user_transfers_received ON user_transfers (recipient_id, created_at DESC);

CREATE FUNCTION user_transfer_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a transfer between users is final';
END;
$$;
CREATE TRIGGER user_transfers_final BEFORE UPDATE OR DELETE ON user_transfers
  FOR EACH ROW EXECUTE FUNCTION user_transfer_is_final();
