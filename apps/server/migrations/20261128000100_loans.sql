-- Loans (issue 18, ADR 0036): USDT lent against pledged collateral by a published credit policy.
-- An application pledges collateral (an entry from the coin account's available part to its frozen
-- part, with an open hold naming the loan); compliance staff approve or reject it (two of them above
-- a published amount); on approval one entry pays the principal from the lending treasury (the
-- platform's `treasury` account labelled 'lending', never below zero) to the coin account. Repayments
-- go back to it; at the due date, or when the collateral's value falls to the liquidation ratio, a
-- durable job sells what covers the loan at a recorded price and returns the rest, once.

CREATE TABLE loan_products (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  cycle_days            integer NOT NULL CHECK (cycle_days BETWEEN 1 AND 365),
  daily_rate_ppm        integer NOT NULL CHECK (daily_rate_ppm BETWEEN 0 AND 10000),
  min_amount_minor      numeric(78, 0) NOT NULL CHECK (min_amount_minor > 0),
  max_amount_minor      numeric(78, 0) NOT NULL CHECK (max_amount_minor >= min_amount_minor),
  -- [{ "asset": "BTC", "ltvPpm": 650000 }, …]: what may be pledged and the share of its value lent.
  collateral            jsonb NOT NULL,
  margin_call_ltv_ppm   integer NOT NULL CHECK (margin_call_ltv_ppm > 0),
  liquidation_ltv_ppm   integer NOT NULL CHECK (liquidation_ltv_ppm > margin_call_ltv_ppm AND liquidation_ltv_ppm <= 1000000),
  open                  boolean NOT NULL DEFAULT true,
  -- Raised by every change; the agreement a borrower accepts carries it.
  terms_version         integer NOT NULL DEFAULT 1,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);

-- Proposed products and changes, applied only when a second admin approves (as earn's).
CREATE TABLE loan_product_changes (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  product_id      bigint REFERENCES loan_products (id),
  proposal        jsonb NOT NULL,
  proposed_by     bigint NOT NULL REFERENCES staff (id),
  proposed_at     timestamptz NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by      bigint REFERENCES staff (id),
  decided_at      timestamptz,
  decision_note   text,
  CHECK ((status = 'pending') = (decided_by IS NULL)),
  CHECK (decided_by IS NULL OR decided_by <> proposed_by)
);
CREATE INDEX loan_product_changes_pending ON loan_product_changes (proposed_at) WHERE status = 'pending';

-- One row per borrower, locked by every application, approval, rejection, repayment and
-- liquidation of theirs: what they owe or have applied for, so racing applications are judged one
-- at a time against the available credit. Lock order: loan rows, this row, ledger accounts.
CREATE TABLE loan_borrowers (
  user_id          bigint PRIMARY KEY REFERENCES users (id),
  committed_minor  numeric(78, 0) NOT NULL DEFAULT 0 CHECK (committed_minor >= 0)
);

ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check CHECK (purpose IN ('verification', 'deposit_proof', 'chat', 'loan_holding'));

CREATE TABLE loans (
  id                          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  loan_no                     text NOT NULL UNIQUE,
  user_id                     bigint NOT NULL REFERENCES users (id),
  product_id                  bigint NOT NULL REFERENCES loan_products (id),
  amount_minor                numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  -- The terms of the agreement the borrower accepted, copied: a later change never reaches the loan.
  terms_version               integer NOT NULL,
  cycle_days                  integer NOT NULL CHECK (cycle_days > 0),
  daily_rate_ppm              integer NOT NULL CHECK (daily_rate_ppm >= 0),
  margin_call_ltv_ppm         integer NOT NULL,
  liquidation_ltv_ppm         integer NOT NULL,
  agreement_accepted_at_ms    bigint NOT NULL,
  collateral_asset            text NOT NULL,
  collateral_minor            numeric(78, 0) NOT NULL CHECK (collateral_minor > 0),
  collateral_ltv_ppm          integer NOT NULL,
  -- The pledge: the borrower's coin account of the collateral asset, its hold and entry.
  collateral_account_id       bigint NOT NULL REFERENCES ledger_accounts (id),
  hold_id                     bigint NOT NULL REFERENCES ledger_holds (id),
  pledge_entry_id             bigint NOT NULL REFERENCES journal_entries (id),
  -- The price the application was judged at.
  applied_tick_id             bigint,
  applied_price               text,
  holding_upload_id           bigint NOT NULL REFERENCES uploads (id),
  applied_at_ms               bigint NOT NULL,
  status                      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'passed', 'rejected', 'repaid', 'liquidated')),
  approvals_required          smallint NOT NULL CHECK (approvals_required IN (1, 2)),
  decided_at_ms               bigint,
  reject_reason               text CHECK (length(reject_reason) <= 500),
  -- Set on approval.
  disburse_entry_id           bigint REFERENCES journal_entries (id),
  started_at_ms               bigint,
  due_at_ms                   bigint,
  -- What is owed: principal not repaid, interest charged and unpaid, the day charged up to.
  principal_outstanding_minor numeric(78, 0) NOT NULL DEFAULT 0 CHECK (principal_outstanding_minor >= 0),
  interest_unpaid_minor       numeric(78, 0) NOT NULL DEFAULT 0 CHECK (interest_unpaid_minor >= 0),
  charged_days                integer NOT NULL DEFAULT 0 CHECK (charged_days BETWEEN 0 AND cycle_days),
  interest_paid_minor         numeric(78, 0) NOT NULL DEFAULT 0 CHECK (interest_paid_minor >= 0),
  repaid_minor                numeric(78, 0) NOT NULL DEFAULT 0 CHECK (repaid_minor >= 0),
  -- The first margin call: when, and the tick that made it.
  margin_call_at_ms           bigint,
  margin_call_tick_id         bigint,
  -- The end: rejected (pledge returned), repaid (pledge returned), or liquidated at 'due' or by 'price'.
  closed_at_ms                bigint,
  close_entry_id              bigint REFERENCES journal_entries (id),
  liquidation_kind            text CHECK (liquidation_kind IN ('due', 'price')),
  liquidation_tick_id         bigint,
  liquidation_price           text,
  sold_minor                  numeric(78, 0),
  shortfall_minor             numeric(78, 0),
  CHECK ((status IN ('passed', 'repaid', 'liquidated')) = (disburse_entry_id IS NOT NULL)),
  CHECK ((status IN ('pending', 'passed')) = (close_entry_id IS NULL)),
  CHECK ((status = 'liquidated') = (liquidation_kind IS NOT NULL))
);
CREATE INDEX loans_user ON loans (user_id, id DESC);
CREATE INDEX loans_pending ON loans (applied_at_ms, id) WHERE status = 'pending';
-- The liquidation job walks outstanding loans through this index.
CREATE INDEX loans_outstanding ON loans (due_at_ms, id) WHERE status = 'passed';

-- Each staff decision on an application: one per member and loan, so one person cannot be both approvals.
CREATE TABLE loan_reviews (
  loan_id      bigint NOT NULL REFERENCES loans (id),
  staff_id     bigint NOT NULL REFERENCES staff (id),
  decision     text NOT NULL CHECK (decision IN ('approve', 'reject')),
  reason       text CHECK (length(reason) <= 500),
  decided_at   timestamptz NOT NULL,
  PRIMARY KEY (loan_id, staff_id)
);

CREATE TABLE loan_repayments (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  loan_id          bigint NOT NULL REFERENCES loans (id),
  amount_minor     numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  interest_minor   numeric(78, 0) NOT NULL CHECK (interest_minor >= 0),
  principal_minor  numeric(78, 0) NOT NULL CHECK (principal_minor >= 0),
  -- 'borrower' from the coin account, or 'collateral' by a liquidation.
  source           text NOT NULL CHECK (source IN ('borrower', 'collateral')),
  entry_id         bigint NOT NULL UNIQUE REFERENCES journal_entries (id),
  at_ms            bigint NOT NULL
);
CREATE INDEX loan_repayments_loan ON loan_repayments (loan_id, id);
