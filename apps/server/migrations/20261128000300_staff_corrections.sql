-- Staff corrections (issue 22, ADR 0039): the only way a person at Keel changes a balance. A finance
-- or admin member proposes a signed amount for one user account or one published house account,
-- with the reason the user will read; a different member approves (an admin above the published
-- value) or rejects it. Only an approval posts, as one `staff.correction` journal entry (its key the
-- correction's id), in the same transaction as the decision.

CREATE TABLE staff_corrections (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  target                  text NOT NULL CHECK (target IN ('user', 'house')),
  user_id                 bigint REFERENCES users (id),
  account_kind            text CHECK (account_kind IN ('coin', 'fiat', 'options', 'leveraged', 'defi')),
  house_account           text CHECK (house_account IN ('earn_treasury', 'lending_treasury', 'insurance_fund')),
  asset                   text NOT NULL REFERENCES ledger_assets (code),
  -- Signed: credited to the target when positive, taken from it when negative.
  amount_minor            numeric(78, 0) NOT NULL CHECK (amount_minor <> 0),
  reason                  text NOT NULL CHECK (length(btrim(reason)) BETWEEN 10 AND 500),
  reference               text CHECK (length(reference) <= 100),
  -- |amount| in USDT at the latest recorded price when proposed; null when there was none.
  value_usdt_minor        numeric(78, 0) CHECK (value_usdt_minor >= 0),
  admin_checker_required  boolean NOT NULL,
  proposed_by             bigint NOT NULL REFERENCES staff (id),
  proposed_at             timestamptz NOT NULL,
  status                  text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by              bigint REFERENCES staff (id),
  decided_at              timestamptz,
  decision_note           text CHECK (length(decision_note) <= 500),
  entry_id                bigint REFERENCES journal_entries (id),
  CHECK ((target = 'user') = (user_id IS NOT NULL AND account_kind IS NOT NULL AND house_account IS NULL)),
  CHECK ((target = 'house') = (house_account IS NOT NULL AND user_id IS NULL AND account_kind IS NULL)),
  -- Nobody checks their own correction, whatever the code above does.
  CHECK (decided_by IS NULL OR decided_by <> proposed_by),
  CHECK ((status = 'pending') = (decided_by IS NULL AND decided_at IS NULL)),
  CHECK ((status = 'approved') = (entry_id IS NOT NULL))
);

CREATE INDEX staff_corrections_by_status ON staff_corrections (status, id);
CREATE INDEX staff_corrections_by_user ON staff_corrections (user_id, id) WHERE user_id IS NOT NULL;
