-- VIP levels (issue 20, ADR 0046). The table of levels is published configuration (packages/domain
-- vip/levels.ts, public `GET /home/vip/levels`); these tables hold who has which level and why.

-- The level each user has now. `source` says which path of the published rule gave it: the daily
-- job's rule ('rule') or a reviewed application ('application', with the application's id). Users
-- without a row are level 0. Only the daily job and the application review write here.
CREATE TABLE vip_levels (
  user_id         bigint PRIMARY KEY REFERENCES users (id),
  level           integer NOT NULL CHECK (level >= 0),
  source          text NOT NULL CHECK (source IN ('rule', 'application')),
  application_id  bigint,
  since           timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);

-- One row per (user, UTC day) the daily job computed: the standing it read and the level it gave.
-- The primary key is the "never twice for one (user, day)" guarantee; the row commits with the
-- level it sets, so a killed run leaves either both or neither.
CREATE TABLE vip_level_runs (
  user_id               bigint NOT NULL REFERENCES users (id),
  day                   date NOT NULL,
  volume_30d_usdt_minor numeric(78, 0) NOT NULL CHECK (volume_30d_usdt_minor >= 0),
  balance_usdt_minor    numeric(78, 0) NOT NULL CHECK (balance_usdt_minor >= 0),
  rule_level            integer NOT NULL CHECK (rule_level >= 0),
  level                 integer NOT NULL CHECK (level >= 0),
  computed_at           timestamptz NOT NULL,
  PRIMARY KEY (user_id, day)
);

-- Applications for a level the table grants on application. Staff approve only what the rule
-- allows (the standing read at review time is kept); the reviewer and time are recorded, and every
-- decision is audited.
CREATE TABLE vip_applications (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id               bigint NOT NULL REFERENCES users (id),
  level                 integer NOT NULL CHECK (level > 0),
  note                  text CHECK (length(note) <= 500),
  status                text NOT NULL CHECK (status IN ('in_review', 'approved', 'rejected')),
  submitted_at          timestamptz NOT NULL,
  reviewed_by           bigint REFERENCES staff (id),
  reviewed_at           timestamptz,
  reject_reason         text CHECK (length(reject_reason) <= 500),
  volume_30d_usdt_minor numeric(78, 0),
  balance_usdt_minor    numeric(78, 0)
);
CREATE UNIQUE INDEX vip_applications_one_open ON vip_applications (user_id) WHERE status = 'in_review';
CREATE INDEX vip_applications_queue ON vip_applications (status, submitted_at, id);

-- A swap quote keeps the fee before the VIP discount, the level and its discount, and the swap's
-- USDT value (what the 30-day volume counts). Old quotes: no discount, no value.
ALTER TABLE swap_quotes ADD COLUMN fee_before_discount_minor numeric(78, 0);
ALTER TABLE swap_quotes ADD COLUMN vip_level integer NOT NULL DEFAULT 0;
ALTER TABLE swap_quotes ADD COLUMN vip_discount_bps integer NOT NULL DEFAULT 0;
ALTER TABLE swap_quotes ADD COLUMN usdt_value_minor numeric(78, 0);
CREATE INDEX swap_quotes_volume ON swap_quotes (user_id, executed_at) WHERE executed_entry_id IS NOT NULL;

-- A P2P release charges the buyer the fee at their VIP level then; the order keeps that level, so
-- the order's fee reads the same ever after.
ALTER TABLE p2p_orders ADD COLUMN release_vip_level integer;
