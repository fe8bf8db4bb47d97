-- Registration and login by phone or e-mail as well as by username (issue 4). A user has at least
-- one of the three; each is unique (e-mail whatever its case; phones are stored in E.164 form).
ALTER TABLE users ALTER COLUMN username DROP NOT NULL;
ALTER TABLE users ADD COLUMN email text CHECK (email = lower(email) AND length(email) BETWEEN 6 AND 254);
ALTER TABLE users ADD COLUMN phone text CHECK (phone ~ '^\+[1-9][0-9]{7,14}$');
ALTER TABLE users ADD CONSTRAINT users_have_an_identifier CHECK (username IS NOT NULL OR email IS NOT NULL OR phone IS NOT NULL);
CREATE UNIQUE INDEX users_email ON users (email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL;

-- Failed logins per identifier as typed (normalised), whether or not an account has it, so that
-- slowing down and locking reveal nothing about which accounts exist.
CREATE TABLE login_failures (
  identifier     text PRIMARY KEY CHECK (length(identifier) <= 254),
  failures       integer NOT NULL CHECK (failures >= 0),
  first_failed_at timestamptz NOT NULL,
  last_failed_at timestamptz NOT NULL,
  locked_until   timestamptz
);

-- When the login password last changed (by the user or by recovery): withdrawals are locked for
-- 24 h after it, a published rule shown to the user.
ALTER TABLE users ADD COLUMN login_password_changed_at timestamptz;
