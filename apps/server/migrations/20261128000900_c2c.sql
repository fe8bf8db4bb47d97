-- C2C fiat deposits and withdrawals through merchants (issue 19, ADR 0043). A merchant is a staff
-- member with the merchant role; their USDT float is a platform ledger account of their own
-- (`treasury`, label 'merchant:<staff id>', never below zero), funded and drawn down only by house
-- corrections with a maker and a checker. A request's money follows the machine of
-- packages/domain/src/c2c/c2c.ts: a deposit's USDT is held on the float when the merchant accepts, a
-- withdrawal's on the user's fiat account from the request.

CREATE TABLE c2c_merchants (
  staff_id             bigint PRIMARY KEY REFERENCES staff (id),
  -- The name users see (never the staff username).
  display_name         text NOT NULL CHECK (length(btrim(display_name)) BETWEEN 2 AND 40),
  -- Where users pay a deposit's fiat, shown to the user of an accepted deposit only.
  payment_details      text NOT NULL DEFAULT '' CHECK (length(payment_details) <= 500),
  online               boolean NOT NULL DEFAULT false,
  -- The fair rule's tie-break: the least recently matched merchant first (never matched first).
  last_matched_at_ms   bigint,
  updated_at           timestamptz NOT NULL
);

-- What a merchant serves: one price and per-order limits per country (its currency is the country's).
CREATE TABLE c2c_merchant_terms (
  merchant_id       bigint NOT NULL REFERENCES c2c_merchants (staff_id),
  country           text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- Fiat per whole USDT in hundredths of the fiat: what a deposit's user pays and a withdrawal's user is paid.
  price_fiat_minor  numeric(78, 0) NOT NULL CHECK (price_fiat_minor > 0),
  min_usdt_minor    numeric(78, 0) NOT NULL CHECK (min_usdt_minor > 0),
  max_usdt_minor    numeric(78, 0) NOT NULL,
  PRIMARY KEY (merchant_id, country),
  CHECK (max_usdt_minor >= min_usdt_minor)
);
CREATE INDEX c2c_merchant_terms_by_country ON c2c_merchant_terms (country, price_fiat_minor);

ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check CHECK (purpose IN ('verification', 'deposit_proof', 'chat', 'loan_holding', 'c2c_proof'));

CREATE TABLE c2c_requests (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The order number a person reads and quotes: C, the UTC day, the id.
  order_no             text NOT NULL UNIQUE,
  user_id              bigint NOT NULL REFERENCES users (id),
  kind                 text NOT NULL CHECK (kind IN ('deposit', 'withdrawal')),
  status               text NOT NULL CHECK (status IN ('matching', 'offered', 'awaiting_payment', 'paid', 'appealing', 'succeeded', 'failed')),
  country              text NOT NULL,
  currency             text NOT NULL,
  usdt_minor           numeric(78, 0) NOT NULL CHECK (usdt_minor > 0),
  -- The price the user was shown before confirming: only merchants at it or better for the user are offered.
  quoted_price_fiat_minor numeric(78, 0) NOT NULL CHECK (quoted_price_fiat_minor > 0),
  -- The merchant's price and the fiat of the order, fixed when a merchant accepts.
  price_fiat_minor     numeric(78, 0),
  fiat_minor           numeric(78, 0),
  merchant_id          bigint REFERENCES c2c_merchants (staff_id),
  offered_merchant_id  bigint REFERENCES c2c_merchants (staff_id),
  match_deadline_ms    bigint NOT NULL,
  offer_deadline_ms    bigint,
  payment_deadline_ms  bigint,
  paid_at_ms           bigint,
  -- A withdrawal: the user's USDT held on their fiat account from the request. A deposit: the
  -- merchant's USDT held on the float from the acceptance.
  hold_id              bigint REFERENCES ledger_holds (id),
  -- A withdrawal's bank details as given (jsonb of the spec's fields).
  bank_details         jsonb,
  -- A deposit's transaction screenshot (the user's upload).
  proof_upload_id      bigint REFERENCES uploads (id),
  -- A withdrawal: the merchant's payment reference (the bank's transaction number).
  payment_reference    text CHECK (length(payment_reference) <= 100),
  appeal_by            text CHECK (appeal_by IN ('user', 'merchant', 'system')),
  appeal_reason        text CHECK (length(appeal_reason) <= 500),
  fail_reason          text CHECK (fail_reason IN ('unmatched', 'unpaid', 'cancelled', 'support')),
  -- Support's resolution of an appeal, with the two-person rule of P2P appeals (ADR 0022).
  resolution           text CHECK (resolution IN ('complete', 'fail')),
  resolved_by          bigint REFERENCES staff (id),
  resolution_note      text CHECK (length(resolution_note) <= 500),
  proposed_outcome     text CHECK (proposed_outcome IN ('complete', 'fail')),
  proposed_by          bigint REFERENCES staff (id),
  proposed_at          timestamptz,
  proposal_note        text CHECK (length(proposal_note) <= 500),
  two_person_reason    jsonb,
  closing_entry_id     bigint REFERENCES journal_entries (id),
  request_key          text,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  ended_at             timestamptz,
  CHECK ((kind = 'withdrawal') = (bank_details IS NOT NULL)),
  CHECK ((status IN ('succeeded', 'failed')) = (ended_at IS NOT NULL)),
  CHECK (status NOT IN ('awaiting_payment', 'paid', 'appealing', 'succeeded') OR (merchant_id IS NOT NULL AND fiat_minor IS NOT NULL))
);
-- One unfinished C2C order per user (issue 19): a second request is refused, whatever races.
CREATE UNIQUE INDEX c2c_requests_one_open ON c2c_requests (user_id) WHERE status NOT IN ('succeeded', 'failed');
CREATE UNIQUE INDEX c2c_requests_by_key ON c2c_requests (user_id, request_key) WHERE request_key IS NOT NULL;
CREATE INDEX c2c_requests_of_user ON c2c_requests (user_id, kind, id DESC);
CREATE INDEX c2c_requests_open ON c2c_requests (status, id) WHERE status IN ('matching', 'offered', 'awaiting_payment', 'paid');
CREATE INDEX c2c_requests_of_merchant ON c2c_requests (merchant_id, id DESC) WHERE merchant_id IS NOT NULL;

-- Who was offered a request and what became of it: the matcher never offers one merchant the same request twice.
CREATE TABLE c2c_offers (
  request_id    bigint NOT NULL REFERENCES c2c_requests (id),
  merchant_id   bigint NOT NULL REFERENCES c2c_merchants (staff_id),
  -- The merchant's price when offered: what the order is made at if they accept.
  price_fiat_minor numeric(78, 0) NOT NULL CHECK (price_fiat_minor > 0),
  offered_at    timestamptz NOT NULL,
  outcome       text CHECK (outcome IN ('accepted', 'declined', 'lapsed', 'ended')),
  decided_at    timestamptz,
  PRIMARY KEY (request_id, merchant_id)
);
CREATE INDEX c2c_offers_open ON c2c_offers (merchant_id) WHERE outcome IS NULL;

-- A user's bank details per country, saved at a withdrawal for the next one.
CREATE TABLE c2c_bank_details (
  user_id     bigint NOT NULL REFERENCES users (id),
  country     text NOT NULL,
  details     jsonb NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, country)
);

-- Merchant floats are funded and drawn down by house corrections (maker and checker, ADR 0039).
ALTER TABLE staff_corrections ADD COLUMN merchant_id bigint REFERENCES c2c_merchants (staff_id);
DO $$
DECLARE constraint_name text;
BEGIN
  FOR constraint_name IN
    SELECT conname FROM pg_constraint
    WHERE conrelid = 'staff_corrections'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%earn_treasury%'
  LOOP
    EXECUTE format('ALTER TABLE staff_corrections DROP CONSTRAINT %I', constraint_name);
  END LOOP;
END;
$$;
ALTER TABLE staff_corrections ADD CONSTRAINT staff_corrections_house_known
  CHECK (house_account IN ('earn_treasury', 'lending_treasury', 'insurance_fund', 'merchant_float'));
ALTER TABLE staff_corrections ADD CONSTRAINT staff_corrections_merchant_float
  CHECK ((house_account = 'merchant_float') = (merchant_id IS NOT NULL));

-- Support's C2C resolutions are money decisions under the two-person rule, like P2P appeals (ADR 0022).
ALTER TABLE staff_money_decisions DROP CONSTRAINT staff_money_decisions_kind_check;
ALTER TABLE staff_money_decisions ADD CONSTRAINT staff_money_decisions_kind_check
  CHECK (kind IN ('deposit.credit', 'withdrawal.approve', 'p2p.release', 'p2p.refund', 'loan.disburse', 'c2c.complete', 'c2c.fail'));
