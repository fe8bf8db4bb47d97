-- Contract settlement (issue 7, ADR 0017) looks up "the first tick of a market observed at or after
-- a time", ties broken by recording order: one probe of this index. It replaces the (symbol, time)
-- index, which it covers.
CREATE INDEX market_ticks_symbol_time_id ON market_ticks (symbol, observed_at_ms, id);
DROP INDEX market_ticks_symbol_time;
