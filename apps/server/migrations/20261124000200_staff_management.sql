-- Staff management (issue 13, ADR 0020): accounts created by an admin with a one-time password,
-- mandatory two-step login (TOTP) for every staff member, and sessions each member can list and end.

-- A one-time password (issued on creation or reset) only lets its holder set their own password:
-- password_one_time marks it, password_expires_at is when it stops working. A password the member
-- chose has neither.
ALTER TABLE staff ADD COLUMN password_one_time boolean NOT NULL DEFAULT false;
ALTER TABLE staff ADD COLUMN password_expires_at timestamptz;
ALTER TABLE staff ADD CONSTRAINT staff_one_time_password_expires
  CHECK (password_one_time = (password_expires_at IS NOT NULL));

-- TOTP as for users (migration 20261122001300): the secret being enrolled waits in
-- totp_pending_secret until a code proves the app has it; totp_last_step stops a code working twice.
-- A member without totp_secret can call nothing but the first-login steps.
ALTER TABLE staff ADD COLUMN totp_pending_secret text CHECK (totp_pending_secret ~ '^[A-Z2-7]{32}$');
ALTER TABLE staff ADD COLUMN totp_secret text CHECK (totp_secret ~ '^[A-Z2-7]{32}$');
ALTER TABLE staff ADD COLUMN totp_last_step bigint;

-- Who created the account (null for the seeded first admin) and when anything about it last changed.
ALTER TABLE staff ADD COLUMN created_by bigint REFERENCES staff (id);
ALTER TABLE staff ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- "Admin" and "admin" are one name to a person reading the audit log.
CREATE UNIQUE INDEX staff_username_lower ON staff (lower(username));

-- A public id per session (the token hash never leaves the server), the browser that opened it,
-- and when it was last used (written at most once a minute per session).
ALTER TABLE staff_sessions ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
CREATE UNIQUE INDEX staff_sessions_id ON staff_sessions (id);
ALTER TABLE staff_sessions ADD COLUMN user_agent text;
ALTER TABLE staff_sessions ADD COLUMN last_seen_at timestamptz;
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id) WHERE ended_at IS NULL;
