-- Earn (issue 17, ADR 0035): lock-up mining and financial products with daily interest. A
-- subscription moves its principal from the user's coin account into the frozen part of the user's
-- DeFi account (an open hold naming the subscription), is paid one keyed journal entry of interest
-- per day from the earn treasury (the platform's `treasury` account labelled 'earn', never below
-- zero), and at maturity or on early redemption returns the principal, less the penalty, in one entry.

CREATE TABLE earn_products (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind                 text NOT NULL CHECK (kind IN ('lockup', 'financial')),
  name                 text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  asset                text NOT NULL,
  cycle_days           integer NOT NULL CHECK (cycle_days BETWEEN 1 AND 3650),
  daily_rate_ppm       integer NOT NULL CHECK (daily_rate_ppm BETWEEN 1 AND 10000),
  penalty_rate_ppm     integer NOT NULL CHECK (penalty_rate_ppm BETWEEN 0 AND 10000),
  payout_minute_utc    integer NOT NULL CHECK (payout_minute_utc BETWEEN 0 AND 1439),
  early_redemption     boolean NOT NULL,
  min_amount_minor     numeric(78, 0) NOT NULL CHECK (min_amount_minor > 0),
  max_amount_minor     numeric(78, 0) NOT NULL CHECK (max_amount_minor >= min_amount_minor),
  user_quota_minor     numeric(78, 0) NOT NULL CHECK (user_quota_minor >= min_amount_minor),
  total_quota_minor    numeric(78, 0) NOT NULL CHECK (total_quota_minor >= user_quota_minor),
  -- Principal of the product's active subscriptions: raised by a subscription and checked against
  -- the quota by the same UPDATE, so racing subscriptions cannot pass it together.
  active_minor         numeric(78, 0) NOT NULL DEFAULT 0 CHECK (active_minor >= 0 AND active_minor <= total_quota_minor),
  -- Closed to new subscriptions (never deleted: subscriptions name it).
  open                 boolean NOT NULL DEFAULT true,
  -- Raised by every change to the terms; a subscription records the version it was sold under.
  terms_version        integer NOT NULL DEFAULT 1,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);

-- A staff member's proposed product, or change to one, and the second member's decision (the
-- two-person rule): a change that reaches users (rate, penalty, payout time, cycle, limits) applies
-- only once approved, and only to subscriptions made after it.
CREATE TABLE earn_product_changes (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  product_id      bigint REFERENCES earn_products (id),
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
CREATE INDEX earn_product_changes_pending ON earn_product_changes (proposed_at) WHERE status = 'pending';

-- The one-time acknowledgement of the earn terms before the first subscription, per text version.
CREATE TABLE earn_acknowledgements (
  user_id      bigint NOT NULL REFERENCES users (id),
  version      integer NOT NULL CHECK (version > 0),
  accepted_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, version)
);

CREATE TABLE earn_subscriptions (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_no       text NOT NULL UNIQUE,
  user_id               bigint NOT NULL REFERENCES users (id),
  product_id            bigint NOT NULL REFERENCES earn_products (id),
  asset                 text NOT NULL,
  principal_minor       numeric(78, 0) NOT NULL CHECK (principal_minor > 0),
  -- The terms it was sold under, copied: a later change to the product never reaches it.
  terms_version         integer NOT NULL,
  cycle_days            integer NOT NULL CHECK (cycle_days > 0),
  daily_rate_ppm        integer NOT NULL CHECK (daily_rate_ppm > 0),
  penalty_rate_ppm      integer NOT NULL CHECK (penalty_rate_ppm >= 0),
  payout_minute_utc     integer NOT NULL,
  early_redemption      boolean NOT NULL,
  subscribed_at_ms      bigint NOT NULL,
  matures_at_ms         bigint NOT NULL,
  -- Days paid so far (0 … cycle_days) and their sum: moved with each payout entry.
  paid_days             integer NOT NULL DEFAULT 0 CHECK (paid_days BETWEEN 0 AND cycle_days),
  interest_paid_minor   numeric(78, 0) NOT NULL DEFAULT 0 CHECK (interest_paid_minor >= 0),
  -- The next payout's time (the day after `paid_days`), or null once nothing is left to pay.
  next_payout_at_ms     bigint,
  status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'redeemed')),
  account_id            bigint NOT NULL REFERENCES ledger_accounts (id),
  hold_id               bigint NOT NULL REFERENCES ledger_holds (id),
  subscribe_entry_id    bigint NOT NULL REFERENCES journal_entries (id),
  closed_at_ms          bigint,
  penalty_minor         numeric(78, 0) CHECK (penalty_minor >= 0),
  close_entry_id        bigint REFERENCES journal_entries (id),
  CHECK ((status = 'active') = (close_entry_id IS NULL)),
  CHECK ((status = 'redeemed') = (penalty_minor IS NOT NULL))
);
CREATE INDEX earn_subscriptions_user ON earn_subscriptions (user_id, id DESC);
CREATE INDEX earn_subscriptions_user_product_active ON earn_subscriptions (user_id, product_id) WHERE status = 'active';
-- The payout job finds what is due through this index only.
CREATE INDEX earn_subscriptions_due ON earn_subscriptions (next_payout_at_ms, id) WHERE status = 'active';

-- One row per subscription and day paid: the primary key makes a second payment of a day impossible.
CREATE TABLE earn_payouts (
  subscription_id   bigint NOT NULL REFERENCES earn_subscriptions (id),
  day               integer NOT NULL CHECK (day > 0),
  due_at_ms         bigint NOT NULL,
  paid_at_ms        bigint NOT NULL,
  interest_minor    numeric(78, 0) NOT NULL CHECK (interest_minor >= 0),
  -- The day's journal entry (null when the day's interest rounds to nothing).
  entry_id          bigint REFERENCES journal_entries (id),
  PRIMARY KEY (subscription_id, day)
);

-- Per asset, the interest every active subscription is still owed to maturity. A subscription is
-- sold only while the earn treasury's balance covers this plus its own promise, checked under this
-- row's lock; a payout lowers both by the same amount, so a promised day's interest is always there
-- to pay. Lock order everywhere: subscription rows, product rows, this row, ledger accounts.
CREATE TABLE earn_obligations (
  asset        text PRIMARY KEY,
  owed_minor   numeric(78, 0) NOT NULL DEFAULT 0 CHECK (owed_minor >= 0)
);
