-- Request idempotency (ADR 0019): each claim of a (scope, key) gets a fresh token. Only the run
-- holding the current claim may store, release or — inside its own transaction, together with its
-- effect — commit the answer; a run whose claim was taken over after the in-flight window can
-- never overwrite or free the row of the run that took it over. Rows claimed before this column
-- existed have no token: an in-flight one can only be taken over, a done one is only replayed.
ALTER TABLE idempotency_requests ADD COLUMN claim_token text;
