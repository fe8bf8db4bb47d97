-- A loan's payout is a staff decision that moves money (issue 22's review of ADR 0036): it joins
-- the cumulative two-person rule (ADR 0022), so a compliance member cannot pay out any number of
-- loans below the per-loan threshold alone, nor one borrower receive them that way.
ALTER TABLE staff_money_decisions DROP CONSTRAINT staff_money_decisions_kind_check;
ALTER TABLE staff_money_decisions ADD CONSTRAINT staff_money_decisions_kind_check
  CHECK (kind IN ('deposit.credit', 'withdrawal.approve', 'p2p.release', 'p2p.refund', 'loan.disburse'));
-- Why an application needs a second approver when the rule raised it to two (as deposits and withdrawals keep it).
ALTER TABLE loans ADD COLUMN two_person_reason jsonb;
