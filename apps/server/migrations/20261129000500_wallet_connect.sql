-- Wallet connect by a signed message (issue 21, ADR 0047): Sign-In-With-Ethereum (EIP-4361).

-- Each nonce the server issued inside a message: single use (used_at set in the same transaction
-- as the login or the binding it allowed, by UPDATE … WHERE used_at IS NULL), short-lived.
-- Rows a day past their expiry are deleted when new nonces are issued.
CREATE TABLE wallet_nonces (
  nonce       text PRIMARY KEY,
  purpose     text NOT NULL CHECK (purpose IN ('login', 'bind')),
  address     text NOT NULL,
  chain_id    integer NOT NULL,
  issued_at   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX wallet_nonces_expiry ON wallet_nonces (expires_at);

-- The address each account proved it holds: one per account, one account per address (EIP-55 form).
CREATE TABLE wallet_bindings (
  user_id   bigint PRIMARY KEY REFERENCES users (id),
  address   text NOT NULL UNIQUE,
  chain_id  integer NOT NULL,
  bound_at  timestamptz NOT NULL
);

-- An address-book entry added while it was the account's bound wallet: ownership proven (the
-- published hold still applies).
ALTER TABLE withdrawal_addresses ADD COLUMN ownership_proven_at timestamptz;
