-- Optional two-step login with an authenticator app (TOTP, issue 4). The secret being set up waits
-- in totp_pending_secret until the user proves the app has it; totp_last_step stops a code being
-- used twice.
ALTER TABLE users ADD COLUMN totp_pending_secret text CHECK (totp_pending_secret ~ '^[A-Z2-7]{32}$');
ALTER TABLE users ADD COLUMN totp_secret text CHECK (totp_secret ~ '^[A-Z2-7]{32}$');
ALTER TABLE users ADD COLUMN totp_last_step bigint;
