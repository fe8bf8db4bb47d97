-- The fund section (issue 18, ADR 0037): funding requests published by borrowers with advanced
-- verification and backed by pledged collateral; compliance review; investments held in the
-- investors' coin accounts until the request fills (then moved to the fund escrow, the platform's
-- `treasury` account labelled 'fund') or its window ends (then returned); tranches released from
-- the escrow to the borrower; at term principal and interest from the borrower's coin account to
-- every investor pro rata, or the collateral sold at a recorded price and paid out the same way.

CREATE TABLE fund_requests (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_no              text NOT NULL UNIQUE,
  user_id                 bigint NOT NULL REFERENCES users (id),
  borrower_type           text NOT NULL CHECK (borrower_type IN ('institution', 'individual')),
  title                   text NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
  purpose                 text NOT NULL CHECK (length(purpose) BETWEEN 1 AND 1000),
  amount_minor            numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  daily_rate_ppm          integer NOT NULL CHECK (daily_rate_ppm BETWEEN 0 AND 5000),
  term_days               integer NOT NULL CHECK (term_days BETWEEN 1 AND 365),
  tranches                integer NOT NULL CHECK (tranches BETWEEN 1 AND 12),
  release_period_days     integer NOT NULL CHECK (release_period_days >= 0),
  window_hours            integer NOT NULL CHECK (window_hours > 0),
  -- The pledge: the borrower's coin account of the collateral asset, its hold and entry.
  collateral_asset        text NOT NULL,
  collateral_minor        numeric(78, 0) NOT NULL CHECK (collateral_minor > 0),
  collateral_ltv_ppm      integer NOT NULL,
  collateral_account_id   bigint NOT NULL REFERENCES ledger_accounts (id),
  hold_id                 bigint NOT NULL REFERENCES ledger_holds (id),
  pledge_entry_id         bigint NOT NULL REFERENCES journal_entries (id),
  -- What the request was judged at when published: the tick, the price, the limit and the ratings.
  published_tick_id       bigint,
  published_price         text,
  credit_limit_minor      numeric(78, 0) NOT NULL,
  credit_rating           text NOT NULL CHECK (credit_rating IN ('A', 'B', 'C', 'D')),
  credit_score            integer NOT NULL,
  investment_rating       text NOT NULL CHECK (investment_rating IN ('A', 'B', 'C', 'D')),
  collateral_cover_ppm    integer NOT NULL,
  published_at_ms         bigint NOT NULL,
  status                  text NOT NULL DEFAULT 'review' CHECK (status IN ('review', 'rejected', 'open', 'expired', 'funded', 'repaid', 'defaulted')),
  reviewed_by             bigint REFERENCES staff (id),
  reviewed_at_ms          bigint,
  reject_reason           text CHECK (length(reject_reason) <= 500),
  -- In the pool from approval until the window ends.
  opened_at_ms            bigint,
  window_ends_at_ms       bigint,
  raised_minor            numeric(78, 0) NOT NULL DEFAULT 0 CHECK (raised_minor >= 0 AND raised_minor <= amount_minor),
  investors               integer NOT NULL DEFAULT 0,
  filled_at_ms            bigint,
  fill_entry_id           bigint REFERENCES journal_entries (id),
  released_tranches       integer NOT NULL DEFAULT 0 CHECK (released_tranches BETWEEN 0 AND tranches),
  released_minor          numeric(78, 0) NOT NULL DEFAULT 0,
  next_release_at_ms      bigint,
  due_at_ms               bigint,
  -- The end: refunded (expired), repaid, or defaulted (collateral sold at the tick).
  closed_at_ms            bigint,
  close_entry_id          bigint REFERENCES journal_entries (id),
  default_tick_id         bigint,
  default_price           text,
  sold_minor              numeric(78, 0),
  paid_out_minor          numeric(78, 0),
  shortfall_minor         numeric(78, 0),
  CHECK ((status IN ('funded', 'repaid', 'defaulted')) = (fill_entry_id IS NOT NULL)),
  CHECK ((status IN ('rejected', 'expired', 'repaid', 'defaulted')) = (close_entry_id IS NOT NULL))
);
CREATE INDEX fund_requests_user ON fund_requests (user_id, id DESC);
CREATE INDEX fund_requests_status ON fund_requests (status, id);
-- The job finds what to do through these.
CREATE INDEX fund_requests_window ON fund_requests (window_ends_at_ms, id) WHERE status = 'open';
CREATE INDEX fund_requests_release ON fund_requests (next_release_at_ms, id) WHERE status = 'funded' AND next_release_at_ms IS NOT NULL;
CREATE INDEX fund_requests_due ON fund_requests (due_at_ms, id) WHERE status = 'funded';

CREATE TABLE fund_investments (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  investment_no     text NOT NULL UNIQUE,
  request_id        bigint NOT NULL REFERENCES fund_requests (id),
  user_id           bigint NOT NULL REFERENCES users (id),
  amount_minor      numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  account_id        bigint NOT NULL REFERENCES ledger_accounts (id),
  hold_id           bigint NOT NULL REFERENCES ledger_holds (id),
  entry_id          bigint NOT NULL REFERENCES journal_entries (id),
  invested_at_ms    bigint NOT NULL,
  -- held: in the coin account's frozen part; invested: moved to the escrow at the fill; refunded.
  status            text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'invested', 'refunded')),
  -- What came back at the end: the investor's pro-rata part of the repayment or of the collateral's sale.
  paid_minor        numeric(78, 0),
  paid_entry_id     bigint REFERENCES journal_entries (id)
);
CREATE INDEX fund_investments_request ON fund_investments (request_id, id);
CREATE INDEX fund_investments_user ON fund_investments (user_id, id DESC);

-- One row per tranche released: the primary key makes a second release of a tranche impossible.
CREATE TABLE fund_releases (
  request_id        bigint NOT NULL REFERENCES fund_requests (id),
  tranche           integer NOT NULL CHECK (tranche > 0),
  amount_minor      numeric(78, 0) NOT NULL CHECK (amount_minor > 0),
  due_at_ms         bigint NOT NULL,
  released_at_ms    bigint NOT NULL,
  entry_id          bigint NOT NULL REFERENCES journal_entries (id),
  PRIMARY KEY (request_id, tranche)
);
