-- The cumulative two-person rule (issue 13, defect 3; ADR 0022).

-- Every staff decision that moved money: who carried it out, who agreed first (when two people
-- decided), which user the money reached or left, what it was, its USDT value and when. Written in
-- the decision's own transaction; the per-staff and per-user sums of one-person decisions within
-- the published window are computed from it in SQL, under the row locks of the staff member and
-- the user. A record is decided once; the table is append-only.
CREATE TABLE staff_money_decisions (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind              text NOT NULL CHECK (kind IN ('deposit.credit', 'withdrawal.approve', 'p2p.release', 'p2p.refund')),
  -- The deposit, withdrawal or P2P order decided.
  record_id         bigint NOT NULL,
  user_id           bigint NOT NULL REFERENCES users (id),
  staff_id          bigint NOT NULL REFERENCES staff (id),
  first_staff_id    bigint REFERENCES staff (id),
  people            smallint NOT NULL CHECK (people IN (1, 2)),
  usdt_value_minor  numeric(78, 0) NOT NULL CHECK (usdt_value_minor >= 0),
  decided_at        timestamptz NOT NULL,
  CHECK ((people = 2) = (first_staff_id IS NOT NULL)),
  CHECK (first_staff_id IS DISTINCT FROM staff_id)
);
CREATE UNIQUE INDEX staff_money_decisions_once ON staff_money_decisions ((split_part(kind, '.', 1)), record_id);
CREATE INDEX staff_money_decisions_alone_by_staff ON staff_money_decisions (staff_id, decided_at) WHERE people = 1;
CREATE INDEX staff_money_decisions_alone_for_user ON staff_money_decisions (user_id, decided_at) WHERE people = 1;

CREATE FUNCTION staff_money_decisions_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'staff_money_decisions is append-only';
END;
$$;
CREATE TRIGGER staff_money_decisions_no_update BEFORE UPDATE OR DELETE ON staff_money_decisions
  FOR EACH ROW EXECUTE FUNCTION staff_money_decisions_are_append_only();
CREATE TRIGGER staff_money_decisions_no_truncate BEFORE TRUNCATE ON staff_money_decisions
  FOR EACH STATEMENT EXECUTE FUNCTION staff_money_decisions_are_append_only();

-- Why a deposit or withdrawal needs a second approver when the rule, not its value at creation,
-- asked for one (its approvals_required is then raised from 1 to 2 at the first approval):
-- {rule, limitUsdtMinor, decidedAloneUsdtMinor, valueUsdtMinor, windowMs}, minor units as text.
ALTER TABLE deposits ADD COLUMN two_person_reason jsonb;
ALTER TABLE withdrawals ADD COLUMN two_person_reason jsonb;

-- An appeal that needs two people: the first member's resolution is a proposal (outcome, note,
-- who, when) until a different member asks for the same outcome; asking for the other outcome
-- replaces it. two_person_reason says why two people are needed.
ALTER TABLE p2p_appeals ADD COLUMN proposed_outcome text CHECK (proposed_outcome IN ('release', 'refund'));
ALTER TABLE p2p_appeals ADD COLUMN proposed_by bigint REFERENCES staff (id);
ALTER TABLE p2p_appeals ADD COLUMN proposed_at timestamptz;
ALTER TABLE p2p_appeals ADD COLUMN proposal_note text CHECK (length(proposal_note) <= 500);
ALTER TABLE p2p_appeals ADD COLUMN two_person_reason jsonb;
ALTER TABLE p2p_appeals ADD CONSTRAINT p2p_appeals_proposal_whole
  CHECK ((proposed_outcome IS NULL) = (proposed_by IS NULL) AND (proposed_by IS NULL) = (proposed_at IS NULL) AND (proposed_at IS NULL) = (proposal_note IS NULL));
