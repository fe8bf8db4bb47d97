-- Issue 13 (ADR 0018): failed-attempt counters per name AND source address. A login is counted in
-- two rows: (name, '') across every address, and (name, address) with the hard lock. The payment
-- password's row is per user with source ''. Rows are locked by an upsert before the secret is
-- checked, so concurrent attempts are counted one after the other (no read-then-write gap).
ALTER TABLE login_failures ADD COLUMN source text NOT NULL DEFAULT '' CHECK (length(source) <= 64);
ALTER TABLE login_failures DROP CONSTRAINT login_failures_pkey;
ALTER TABLE login_failures ADD PRIMARY KEY (identifier, source);
