-- Invitations (issue 20, ADR 0045): who invited whom, under which published rule, and the rewards
-- paid. An inviter receives a share of the trading fees each person they invited pays, for a period
-- after that person registered, credited per (invitee, UTC day) by the daily job, from the fee
-- account to the inviter's coin account. One level only: the row names the invitee's own inviter.

-- One row per invited user, written with the user's row at registration. The rule is copied: a
-- later change to the published rule applies only to people who register after it.
CREATE TABLE invitations (
  invitee_id      bigint PRIMARY KEY REFERENCES users (id),
  inviter_id      bigint NOT NULL REFERENCES users (id),
  share_percent   integer NOT NULL CHECK (share_percent BETWEEN 0 AND 50),
  period_days     integer NOT NULL CHECK (period_days BETWEEN 1 AND 3650),
  registered_at   timestamptz NOT NULL,
  -- Fees paid in [registered_at, rewards_until) count; the last rewarded UTC day is last_day.
  rewards_until   timestamptz NOT NULL,
  last_day        date NOT NULL,
  -- The first UTC day not yet settled: moved by the job in the transaction that settles the days
  -- before it. Past last_day when every day is settled.
  next_day        date NOT NULL,
  CHECK (inviter_id <> invitee_id),
  -- Whole days of 86,400 s, whatever the session's time zone.
  CHECK (rewards_until = registered_at + make_interval(secs => period_days * 86400))
);
CREATE INDEX invitations_of_inviter ON invitations (inviter_id, registered_at DESC, invitee_id DESC);
-- What the job claims: invitees with a day left to settle, oldest first.
CREATE INDEX invitations_unsettled ON invitations (next_day, invitee_id) WHERE next_day <= last_day;

-- Users invited before this table existed, under the default rule (20 %, 365 days).
INSERT INTO invitations (invitee_id, inviter_id, share_percent, period_days, registered_at, rewards_until, last_day, next_day)
SELECT u.id, u.invited_by, 20, 365, u.created_at, u.created_at + make_interval(secs => 365 * 86400),
       ((u.created_at + make_interval(secs => 365 * 86400) - interval '1 microsecond') AT TIME ZONE 'UTC')::date,
       (u.created_at AT TIME ZONE 'UTC')::date
  FROM users u WHERE u.invited_by IS NOT NULL AND u.invited_by <> u.id;

-- One row per (invitee, UTC day) settled with fees: exactly once, written in the transaction of the
-- day's entry (null when every share rounded to nothing). A day without any fee is settled by
-- next_day alone.
CREATE TABLE invite_reward_days (
  invitee_id   bigint NOT NULL REFERENCES invitations (invitee_id),
  day          date NOT NULL,
  inviter_id   bigint NOT NULL REFERENCES users (id),
  entry_id     bigint UNIQUE REFERENCES journal_entries (id),
  settled_at   timestamptz NOT NULL,
  PRIMARY KEY (invitee_id, day)
);

-- The fees behind a day's reward, per fee account (in its asset), and the share paid from it.
CREATE TABLE invite_reward_amounts (
  invitee_id       bigint NOT NULL,
  day              date NOT NULL,
  fee_account_id   bigint NOT NULL REFERENCES ledger_accounts (id),
  inviter_id       bigint NOT NULL REFERENCES users (id),
  asset            text NOT NULL REFERENCES ledger_assets (code),
  fee_minor        numeric(78, 0) NOT NULL CHECK (fee_minor > 0),
  reward_minor     numeric(78, 0) NOT NULL CHECK (reward_minor >= 0 AND reward_minor <= fee_minor),
  PRIMARY KEY (invitee_id, day, fee_account_id),
  FOREIGN KEY (invitee_id, day) REFERENCES invite_reward_days (invitee_id, day)
);
CREATE INDEX invite_reward_amounts_of_inviter ON invite_reward_amounts (inviter_id, day DESC, invitee_id DESC, fee_account_id);

-- One message per inviter and UTC day with rewards, however many invitees and job runs paid them.
CREATE TABLE invite_reward_notices (
  inviter_id  bigint NOT NULL REFERENCES users (id),
  day         date NOT NULL,
  PRIMARY KEY (inviter_id, day)
);

CREATE FUNCTION invite_reward_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a settled invitation reward is final';
END;
$$;
CREATE TRIGGER invite_reward_days_final BEFORE UPDATE OR DELETE ON invite_reward_days
  FOR EACH ROW EXECUTE FUNCTION invite_reward_is_final();
CREATE TRIGGER invite_reward_amounts_final BEFORE UPDATE OR DELETE ON invite_reward_amounts
  FOR EACH ROW EXECUTE FUNCTION invite_reward_is_final();
