-- Limit orders that open leveraged and futures positions (issue 16, ADR 0034): margin and fee are
-- frozen when the order is placed and its notional counts against the house's exposure at once;
-- the trigger engine fills it on the first recorded tick that crosses its limit, in the same
-- transaction that opens the position. Append-only evidence like the positions.
CREATE TABLE leverage_orders (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_no             text NOT NULL UNIQUE,
  user_id              bigint NOT NULL REFERENCES users (id),
  account_id           bigint NOT NULL REFERENCES ledger_accounts (id),
  product              text NOT NULL CHECK (product IN ('leveraged', 'futures')),
  symbol               text NOT NULL,
  side                 text NOT NULL CHECK (side IN ('long', 'short')),
  leverage             integer NOT NULL CHECK (leverage BETWEEN 1 AND 100),
  margin_minor         numeric(78, 0) NOT NULL CHECK (margin_minor > 0),
  fee_minor            numeric(78, 0) NOT NULL CHECK (fee_minor >= 0),
  notional_minor       numeric(78, 0) NOT NULL CHECK (notional_minor > 0),
  limit_price          numeric(38, 8) NOT NULL CHECK (limit_price > 0),
  take_profit_price    numeric(38, 8) CHECK (take_profit_price > 0),
  stop_loss_price      numeric(38, 8) CHECK (stop_loss_price > 0),
  -- Margin + fee, frozen until the order fills or is cancelled.
  hold_id              bigint NOT NULL REFERENCES ledger_holds (id),
  place_entry_id       bigint NOT NULL REFERENCES journal_entries (id),
  -- Ticks up to this id were judged before the order existed.
  armed_after_tick_id  bigint NOT NULL,
  placed_at_ms         bigint NOT NULL,
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'filled', 'cancelled')),
  position_id          bigint REFERENCES leverage_positions (id),
  fill_tick_id         bigint,
  fill_tick_price      numeric(38, 8),
  fill_tick_at_ms      bigint,
  fill_tick_source     text,
  closed_at_ms         bigint,
  close_entry_id       bigint REFERENCES journal_entries (id),
  CHECK ((status = 'pending') = (closed_at_ms IS NULL)),
  CHECK ((status = 'filled') = (position_id IS NOT NULL)),
  CHECK ((status = 'filled') = (fill_tick_id IS NOT NULL))
);
CREATE INDEX leverage_orders_of_user ON leverage_orders (user_id, id);
-- Which markets have pending orders at all (the engine passes over those on every new tick).
CREATE INDEX leverage_orders_pending_by_market ON leverage_orders (symbol) WHERE status = 'pending';
-- The engine's queries: per market and side, the pending orders whose limit a run of ticks crossed.
CREATE INDEX leverage_orders_pending_long ON leverage_orders (symbol, limit_price) WHERE status = 'pending' AND side = 'long';
CREATE INDEX leverage_orders_pending_short ON leverage_orders (symbol, limit_price) WHERE status = 'pending' AND side = 'short';

CREATE FUNCTION leverage_orders_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'pending' THEN
    RAISE EXCEPTION 'leverage order % is % and cannot change', OLD.id, OLD.status;
  END IF;
  IF (NEW.id, NEW.order_no, NEW.user_id, NEW.account_id, NEW.product, NEW.symbol, NEW.side, NEW.leverage, NEW.margin_minor, NEW.fee_minor,
      NEW.notional_minor, NEW.limit_price, NEW.take_profit_price, NEW.stop_loss_price, NEW.hold_id, NEW.place_entry_id, NEW.armed_after_tick_id,
      NEW.placed_at_ms)
     IS DISTINCT FROM
     (OLD.id, OLD.order_no, OLD.user_id, OLD.account_id, OLD.product, OLD.symbol, OLD.side, OLD.leverage, OLD.margin_minor, OLD.fee_minor,
      OLD.notional_minor, OLD.limit_price, OLD.take_profit_price, OLD.stop_loss_price, OLD.hold_id, OLD.place_entry_id, OLD.armed_after_tick_id,
      OLD.placed_at_ms) THEN
    RAISE EXCEPTION 'the terms of leverage order % cannot change', OLD.id;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER leverage_orders_guard BEFORE UPDATE ON leverage_orders
  FOR EACH ROW EXECUTE FUNCTION leverage_orders_guard();
CREATE TRIGGER leverage_orders_no_delete BEFORE DELETE ON leverage_orders
  FOR EACH ROW EXECUTE FUNCTION leverage_records_are_kept();
