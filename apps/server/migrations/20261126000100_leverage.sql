-- Leveraged and futures positions (issue 16, ADR 0034): isolated-margin positions in USDT with
-- Keel as the counterparty. A position's margin is a ledger hold on the user's leveraged account;
-- every price that opened, closed, triggered or liquidated it is a recorded tick, copied into the
-- position's events, which can never be edited.

-- The house: Keel's side of every position (users' losses in, their profits out).
DO $$
DECLARE constraint_name text;
BEGIN
  FOR constraint_name IN
    SELECT conname FROM pg_constraint
    WHERE conrelid = 'ledger_accounts'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%options_house%'
  LOOP
    EXECUTE format('ALTER TABLE ledger_accounts DROP CONSTRAINT %I', constraint_name);
  END LOOP;
END;
$$;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_known CHECK (kind IN (
  'coin', 'fiat', 'innovation', 'defi', 'leveraged', 'options',
  'treasury', 'fees', 'options_house', 'leverage_house', 'insurance_fund', 'hot_wallet'));
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_platform_kinds CHECK (
  (user_id IS NULL) = (kind IN ('treasury', 'fees', 'options_house', 'leverage_house', 'insurance_fund', 'hot_wallet')));

-- The one-time risk disclosure of leveraged and futures trading, per user and text version.
CREATE TABLE leverage_risk_disclosures (
  user_id      bigint NOT NULL REFERENCES users (id),
  version      integer NOT NULL CHECK (version > 0),
  accepted_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, version)
);

-- Per market, the last recorded tick the trigger engine has judged every open position against.
-- The engine holds the row FOR UPDATE while it works on the market (other nodes skip it); an
-- order or a change to a position holds it FOR SHARE, so a change lands wholly before or wholly
-- after a pass, and a new position is watched from the ticks after the cursor.
CREATE TABLE leverage_trigger_cursors (
  symbol        text PRIMARY KEY,
  last_tick_id  bigint NOT NULL
);

-- The house's open exposure per market and side (sum of open positions' entry notionals), checked
-- against the published limit by the same UPDATE that raises it, so racing orders cannot pass it.
CREATE TABLE leverage_exposures (
  symbol                text NOT NULL,
  side                  text NOT NULL CHECK (side IN ('long', 'short')),
  open_notional_minor   numeric(78, 0) NOT NULL DEFAULT 0 CHECK (open_notional_minor >= 0),
  PRIMARY KEY (symbol, side)
);

CREATE TABLE leverage_positions (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  position_no            text NOT NULL UNIQUE,
  user_id                bigint NOT NULL REFERENCES users (id),
  account_id             bigint NOT NULL REFERENCES ledger_accounts (id),
  product                text NOT NULL CHECK (product IN ('leveraged', 'futures')),
  symbol                 text NOT NULL,
  side                   text NOT NULL CHECK (side IN ('long', 'short')),
  leverage               integer NOT NULL CHECK (leverage BETWEEN 1 AND 100),
  entry_price            numeric(38, 8) NOT NULL CHECK (entry_price > 0),
  -- What is still open: the quantity (10⁻⁸ base units), its entry notional and initial margin
  -- (both shrink in proportion on a partial close), and the margin held (= its hold's amount).
  quantity_minor         numeric(78, 0) NOT NULL CHECK (quantity_minor >= 0),
  entry_notional_minor   numeric(78, 0) NOT NULL CHECK (entry_notional_minor >= 0),
  initial_margin_minor   numeric(78, 0) NOT NULL CHECK (initial_margin_minor >= 0),
  margin_minor           numeric(78, 0) NOT NULL CHECK (margin_minor >= 0),
  hold_id                bigint NOT NULL REFERENCES ledger_holds (id),
  liquidation_price      numeric(38, 8),
  take_profit_price      numeric(38, 8) CHECK (take_profit_price > 0),
  stop_loss_price        numeric(38, 8) CHECK (stop_loss_price > 0),
  -- Ticks up to this id were judged before the position existed: the engine starts after it.
  armed_after_tick_id    bigint NOT NULL,
  opened_at_ms           bigint NOT NULL,
  -- The recorded tick the opening price came from, copied (raw ticks age out; evidence must not).
  open_tick_id           bigint NOT NULL,
  open_tick_price        numeric(38, 8) NOT NULL,
  open_tick_at_ms        bigint NOT NULL,
  open_tick_source       text NOT NULL,
  status                 text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'liquidated')),
  close_reason           text CHECK (close_reason IN ('user', 'take_profit', 'stop_loss', 'liquidation')),
  closed_at_ms           bigint,
  realized_pnl_minor     numeric(78, 0) NOT NULL DEFAULT 0,
  fees_minor             numeric(78, 0) NOT NULL DEFAULT 0 CHECK (fees_minor >= 0),
  funding_minor          numeric(78, 0) NOT NULL DEFAULT 0,
  -- Funding (futures) or interest (leveraged) is charged for every period time after this.
  charged_through_ms     bigint NOT NULL,
  CHECK ((status = 'open') = (closed_at_ms IS NULL)),
  CHECK ((status = 'open') = (close_reason IS NULL)),
  CHECK (status = 'open' OR (quantity_minor = 0 AND margin_minor = 0)),
  CHECK (status <> 'open' OR quantity_minor > 0),
  CHECK ((status = 'liquidated') = (close_reason IS NOT DISTINCT FROM 'liquidation'))
);
CREATE INDEX leverage_positions_of_user ON leverage_positions (user_id, id);
-- Which markets have open positions at all (the engine passes over those on every new tick).
CREATE INDEX leverage_positions_open_by_market ON leverage_positions (symbol) WHERE status = 'open';
-- The trigger engine's queries: per market and side, the open positions whose trigger a run of
-- ticks crossed, each an index range (no scan of all positions).
CREATE INDEX leverage_positions_liquidation_long ON leverage_positions (symbol, liquidation_price) WHERE status = 'open' AND side = 'long';
CREATE INDEX leverage_positions_liquidation_short ON leverage_positions (symbol, liquidation_price) WHERE status = 'open' AND side = 'short';
CREATE INDEX leverage_positions_take_profit_long ON leverage_positions (symbol, take_profit_price) WHERE status = 'open' AND side = 'long';
CREATE INDEX leverage_positions_take_profit_short ON leverage_positions (symbol, take_profit_price) WHERE status = 'open' AND side = 'short';
CREATE INDEX leverage_positions_stop_loss_long ON leverage_positions (symbol, stop_loss_price) WHERE status = 'open' AND side = 'long';
CREATE INDEX leverage_positions_stop_loss_short ON leverage_positions (symbol, stop_loss_price) WHERE status = 'open' AND side = 'short';
-- Funding and interest: open positions by the period they were charged through.
CREATE INDEX leverage_positions_charges_due ON leverage_positions (charged_through_ms, id) WHERE status = 'open';

-- What happened to a position, each with its journal entry and, where a price was used, the
-- recorded tick (and for a liquidation the ticks of the mark price). Append-only.
CREATE TABLE leverage_position_events (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  position_id          bigint NOT NULL REFERENCES leverage_positions (id),
  kind                 text NOT NULL CHECK (kind IN (
                         'open', 'close', 'take_profit', 'stop_loss', 'liquidation',
                         'margin_add', 'margin_remove', 'triggers', 'funding', 'interest')),
  at_ms                bigint NOT NULL,
  quantity_minor       numeric(78, 0),
  price                numeric(38, 8),
  tick_id              bigint,
  tick_price           numeric(38, 8),
  tick_at_ms           bigint,
  tick_source          text,
  mark_tick_ids        bigint[],
  pnl_minor            numeric(78, 0),
  fee_minor            numeric(78, 0),
  insurance_minor      numeric(78, 0),
  payout_minor         numeric(78, 0),
  margin_change_minor  numeric(78, 0),
  take_profit_price    numeric(38, 8),
  stop_loss_price      numeric(38, 8),
  -- Funding and interest: the period time charged, once per position (the unique index below).
  period_at_ms         bigint,
  entry_id             bigint REFERENCES journal_entries (id),
  CHECK ((kind IN ('funding', 'interest')) = (period_at_ms IS NOT NULL)),
  CHECK (kind NOT IN ('close', 'take_profit', 'stop_loss', 'liquidation', 'open') OR (tick_id IS NOT NULL AND price IS NOT NULL)),
  CHECK (kind <> 'liquidation' OR mark_tick_ids IS NOT NULL)
);
CREATE INDEX leverage_position_events_of_position ON leverage_position_events (position_id, id);
CREATE UNIQUE INDEX leverage_position_events_one_charge ON leverage_position_events (position_id, kind, period_at_ms) WHERE period_at_ms IS NOT NULL;

-- A position's opening is evidence: entry price, opening tick, product, side, leverage and owner
-- never change; a closed position never changes again; its quantity only shrinks.
CREATE FUNCTION leverage_positions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'open' THEN
    RAISE EXCEPTION 'leverage position % is closed and cannot change', OLD.id;
  END IF;
  IF (NEW.id, NEW.position_no, NEW.user_id, NEW.account_id, NEW.product, NEW.symbol, NEW.side, NEW.leverage, NEW.entry_price,
      NEW.hold_id, NEW.opened_at_ms, NEW.open_tick_id, NEW.open_tick_price, NEW.open_tick_at_ms, NEW.open_tick_source, NEW.armed_after_tick_id)
     IS DISTINCT FROM
     (OLD.id, OLD.position_no, OLD.user_id, OLD.account_id, OLD.product, OLD.symbol, OLD.side, OLD.leverage, OLD.entry_price,
      OLD.hold_id, OLD.opened_at_ms, OLD.open_tick_id, OLD.open_tick_price, OLD.open_tick_at_ms, OLD.open_tick_source, OLD.armed_after_tick_id) THEN
    RAISE EXCEPTION 'the opening of leverage position % cannot change', OLD.id;
  END IF;
  IF NEW.quantity_minor > OLD.quantity_minor THEN
    RAISE EXCEPTION 'the quantity of leverage position % cannot grow', OLD.id;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER leverage_positions_guard BEFORE UPDATE ON leverage_positions
  FOR EACH ROW EXECUTE FUNCTION leverage_positions_guard();
CREATE FUNCTION leverage_records_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'leverage positions and their events cannot be deleted or edited';
END;
$$;
CREATE TRIGGER leverage_positions_no_delete BEFORE DELETE ON leverage_positions
  FOR EACH ROW EXECUTE FUNCTION leverage_records_are_kept();
CREATE TRIGGER leverage_position_events_append_only BEFORE UPDATE OR DELETE ON leverage_position_events
  FOR EACH ROW EXECUTE FUNCTION leverage_records_are_kept();
