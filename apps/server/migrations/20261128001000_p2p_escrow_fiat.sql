-- P2P escrow moves to the fiat account (decisions page, "Account types": fiat = fiat trading; P2P
-- ads escrow from it, P2P purchases land in it). From now on a sell ad's hold `p2p_ad:{id}` and a
-- buy-ad order's hold `p2p_order:{id}` are placed on the trader's fiat account; this moves the ones
-- still open that were placed on a coin account before. Per hold, one journal entry
-- `p2p.escrow_moved` (referencing the hold's ad or order) moves the frozen amount from the coin
-- account's frozen part to the fiat account's frozen part (same user, same asset), both balances
-- follow, and the hold then names the fiat account — so it is released, refunded or paid out there,
-- and every account's frozen part still equals its open holds. Closed holds and past entries stay
-- as they were (the journal is append-only). The entries have no idempotency key; their
-- postings_hash is 'migration:' || hold id, which no sha256 hex of postEntry can equal.

-- The fiat accounts these holds move to, where the user has none yet.
INSERT INTO ledger_accounts (user_id, kind, asset)
SELECT DISTINCT a.user_id, 'fiat', a.asset
  FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
 WHERE h.status = 'open' AND h.reference_type IN ('p2p_ad', 'p2p_order') AND a.kind = 'coin' AND a.user_id IS NOT NULL
ON CONFLICT DO NOTHING;

DO $$
DECLARE
  moving record;
  fiat_account bigint;
  entry bigint;
BEGIN
  -- The lock order every ledger writer uses: the holds, then the accounts in ascending id order.
  PERFORM 1 FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
    WHERE h.status = 'open' AND h.reference_type IN ('p2p_ad', 'p2p_order') AND a.kind = 'coin' AND a.user_id IS NOT NULL
    ORDER BY h.id FOR UPDATE OF h;
  PERFORM 1 FROM ledger_accounts l
    WHERE l.id IN (
      SELECT x.id FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
        JOIN ledger_accounts x ON x.user_id = a.user_id AND x.asset = a.asset AND x.kind IN ('coin', 'fiat')
       WHERE h.status = 'open' AND h.reference_type IN ('p2p_ad', 'p2p_order') AND a.kind = 'coin' AND a.user_id IS NOT NULL)
    ORDER BY l.id FOR UPDATE;

  FOR moving IN
    SELECT h.id, h.account_id AS coin_account, h.amount_minor, h.reference_type, h.reference_id, a.user_id, a.asset
      FROM ledger_holds h JOIN ledger_accounts a ON a.id = h.account_id
     WHERE h.status = 'open' AND h.reference_type IN ('p2p_ad', 'p2p_order') AND a.kind = 'coin' AND a.user_id IS NOT NULL
     ORDER BY h.id
  LOOP
    SELECT f.id INTO STRICT fiat_account FROM ledger_accounts f WHERE f.user_id = moving.user_id AND f.kind = 'fiat' AND f.asset = moving.asset;
    INSERT INTO journal_entries (reason, reference_type, reference_id, postings_hash, memo, created_at)
    VALUES (
      'p2p.escrow_moved',
      moving.reference_type,
      moving.reference_id,
      'migration:' || moving.id::text,
      'P2P escrow moved from the coin account to the fiat account: P2P trades now use the fiat account.',
      now()
    )
    RETURNING id INTO entry;
    INSERT INTO postings (entry_id, account_id, asset, bucket, amount_minor) VALUES
      (entry, moving.coin_account, moving.asset, 'frozen', -moving.amount_minor),
      (entry, fiat_account, moving.asset, 'frozen', moving.amount_minor);
    UPDATE ledger_accounts SET frozen_minor = frozen_minor - moving.amount_minor WHERE id = moving.coin_account;
    UPDATE ledger_accounts SET frozen_minor = frozen_minor + moving.amount_minor WHERE id = fiat_account;
    UPDATE ledger_holds SET account_id = fiat_account WHERE id = moving.id;
  END LOOP;
END;
$$;
