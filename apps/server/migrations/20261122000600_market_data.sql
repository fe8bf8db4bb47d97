-- Market data (issue 3): recorded price ticks, candles aggregated from them in the same
-- transaction, users' watchlists, and the lease that lets one node per database run the feed.

-- Every price Keel uses is one of these rows. Ids are handed out under an advisory lock held to
-- commit (see persistence/market-ticks.store.ts), so id order is commit order and every node can tail the table
-- with "id > last seen" without missing a row.
CREATE TABLE market_ticks (
  id              bigserial PRIMARY KEY,
  symbol          text NOT NULL CHECK (symbol ~ '^[A-Z0-9]{2,10}/[A-Z0-9]{2,10}$'),
  price           numeric(38, 8) NOT NULL CHECK (price > 0),   -- PRICE_SCALE = 8, exact
  observed_at_ms  bigint NOT NULL CHECK (observed_at_ms >= 0),  -- when the source saw the price
  source          text NOT NULL CHECK (length(source) BETWEEN 1 AND 64),
  recorded_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX market_ticks_symbol_id ON market_ticks (symbol, id);
CREATE INDEX market_ticks_symbol_time ON market_ticks (symbol, observed_at_ms);

-- A recorded price is evidence: it may age out (retention), but never change.
CREATE FUNCTION market_ticks_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'market_ticks rows cannot be changed';
END;
$$;
CREATE TRIGGER market_ticks_no_update BEFORE UPDATE ON market_ticks
  FOR EACH ROW EXECUTE FUNCTION market_ticks_are_immutable();

CREATE TABLE market_candles (
  symbol          text NOT NULL,
  interval        text NOT NULL CHECK (interval IN ('1m', '5m', '15m', '1h', '1d')),
  open_time_ms    bigint NOT NULL CHECK (open_time_ms >= 0),   -- bucket start, UTC-aligned
  open            numeric(38, 8) NOT NULL,
  high            numeric(38, 8) NOT NULL,
  low             numeric(38, 8) NOT NULL,
  close           numeric(38, 8) NOT NULL,
  tick_count      integer NOT NULL CHECK (tick_count > 0),
  close_tick_id   bigint NOT NULL,                              -- the tick that set close: the latest wins
  PRIMARY KEY (symbol, interval, open_time_ms),
  CHECK (low <= open AND low <= close AND high >= open AND high >= close)
);

CREATE TABLE market_watchlists (
  user_id   bigint NOT NULL REFERENCES users (id),
  symbol    text NOT NULL,
  position  integer NOT NULL CHECK (position >= 0),
  PRIMARY KEY (user_id, symbol)
);

-- One row per feed. The holder renews it every few seconds with a conditional update; another
-- node takes it over only once it has expired. Times are the database's clock, so the nodes'
-- clocks need not agree.
CREATE TABLE market_feed_lease (
  name         text PRIMARY KEY,
  holder       text NOT NULL,
  expires_at   timestamptz NOT NULL,
  acquired_at  timestamptz NOT NULL DEFAULT now()
);
