-- Short-cycle up/down contracts (issue 7, ADR 0017). An order is its own durable settlement job:
-- the settler claims open orders past expiry with FOR UPDATE SKIP LOCKED and settles each once,
-- in the transaction that posts its journal entry.

-- The one-time risk disclosure (decisions page §1.4), per user and text version.
CREATE TABLE option_risk_disclosures (
  user_id      bigint NOT NULL REFERENCES users (id),
  version      integer NOT NULL CHECK (version > 0),
  accepted_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, version)
);

CREATE TABLE option_orders (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_no               text NOT NULL UNIQUE,
  user_id                bigint NOT NULL REFERENCES users (id),
  account_id             bigint NOT NULL REFERENCES ledger_accounts (id),
  symbol                 text NOT NULL,
  direction              text NOT NULL CHECK (direction IN ('up', 'down')),
  cycle_seconds          integer NOT NULL CHECK (cycle_seconds > 0),
  yield_bps              integer NOT NULL CHECK (yield_bps > 0),
  stake_minor            numeric(78, 0) NOT NULL CHECK (stake_minor > 0),
  expected_profit_minor  numeric(78, 0) NOT NULL CHECK (expected_profit_minor >= 0),
  hold_id                bigint NOT NULL REFERENCES ledger_holds (id),
  place_entry_id         bigint NOT NULL REFERENCES journal_entries (id),
  placed_at_ms           bigint NOT NULL,
  expires_at_ms          bigint NOT NULL,
  -- The opening tick, copied: raw ticks age out of market_ticks, the evidence must not.
  open_tick_id           bigint NOT NULL,
  open_price             numeric(38, 8) NOT NULL CHECK (open_price > 0),
  open_tick_at_ms        bigint NOT NULL,
  open_tick_source       text NOT NULL,
  status                 text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'flat', 'void')),
  close_tick_id          bigint,
  close_price            numeric(38, 8),
  close_tick_at_ms       bigint,
  close_tick_source      text,
  profit_minor           numeric(78, 0),
  settle_entry_id        bigint REFERENCES journal_entries (id),
  settled_at_ms          bigint,
  CHECK (expires_at_ms = placed_at_ms + cycle_seconds * 1000::bigint),
  -- Open: nothing of the close is known. Settled: the entry, the profit and the time are; a close
  -- tick is there unless the order is void for want of one.
  CHECK ((status = 'open') = (settle_entry_id IS NULL)),
  CHECK (status = 'open' OR (profit_minor IS NOT NULL AND settled_at_ms IS NOT NULL)),
  CHECK (status IN ('open', 'void') OR close_tick_id IS NOT NULL),
  CHECK ((close_tick_id IS NULL) = (close_price IS NULL) AND (close_tick_id IS NULL) = (close_tick_at_ms IS NULL)),
  CHECK (close_tick_at_ms IS NULL OR close_tick_at_ms >= expires_at_ms)
);
-- What the settler scans: open orders by expiry.
CREATE INDEX option_orders_due ON option_orders (expires_at_ms, id) WHERE status = 'open';
CREATE INDEX option_orders_of_user ON option_orders (user_id, id);
CREATE INDEX option_orders_settled ON option_orders (settled_at_ms) WHERE status <> 'open';

-- An order is evidence. The only change it ever takes is its one settlement, from open to a
-- result; what it opened at, and once settled what it closed at, can never be edited.
CREATE FUNCTION option_orders_settle_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'open' THEN
    RAISE EXCEPTION 'option order % is settled and cannot change', OLD.id;
  END IF;
  IF (NEW.id, NEW.order_no, NEW.user_id, NEW.account_id, NEW.symbol, NEW.direction, NEW.cycle_seconds, NEW.yield_bps,
      NEW.stake_minor, NEW.expected_profit_minor, NEW.hold_id, NEW.place_entry_id, NEW.placed_at_ms, NEW.expires_at_ms,
      NEW.open_tick_id, NEW.open_price, NEW.open_tick_at_ms, NEW.open_tick_source)
     IS DISTINCT FROM
     (OLD.id, OLD.order_no, OLD.user_id, OLD.account_id, OLD.symbol, OLD.direction, OLD.cycle_seconds, OLD.yield_bps,
      OLD.stake_minor, OLD.expected_profit_minor, OLD.hold_id, OLD.place_entry_id, OLD.placed_at_ms, OLD.expires_at_ms,
      OLD.open_tick_id, OLD.open_price, OLD.open_tick_at_ms, OLD.open_tick_source) THEN
    RAISE EXCEPTION 'the opening of option order % cannot change', OLD.id;
  END IF;
  IF NEW.status = 'open' THEN
    RAISE EXCEPTION 'option order % can only change by being settled', OLD.id;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER option_orders_settle_once BEFORE UPDATE ON option_orders
  FOR EACH ROW EXECUTE FUNCTION option_orders_settle_once();
CREATE FUNCTION option_orders_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'option orders cannot be deleted';
END;
$$;
CREATE TRIGGER option_orders_no_delete BEFORE DELETE ON option_orders
  FOR EACH ROW EXECUTE FUNCTION option_orders_are_kept();
