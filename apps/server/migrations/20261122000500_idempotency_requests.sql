-- Request-level idempotency for money-moving calls: the stored answer to each (caller, key).
CREATE TABLE idempotency_requests (
  scope            text NOT NULL,          -- whose key it is, e.g. 'user:42'
  idem_key         text NOT NULL CHECK (length(idem_key) BETWEEN 8 AND 100),
  request_hash     text NOT NULL,          -- sha-256 of method, path and body: another request under the key is refused
  status           text NOT NULL CHECK (status IN ('in_flight', 'done')),
  response_status  integer,
  response_body    jsonb,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,   -- kept at least 24 hours
  PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_requests_expiry ON idempotency_requests (expires_at);
