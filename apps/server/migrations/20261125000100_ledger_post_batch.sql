-- A batch of plain journal entries in one statement, so one round trip (issue 15, ADR 0033).
-- Called outside any transaction: the statement is its own transaction, so its answer arrives after
-- its COMMIT and nothing is ever answered that did not commit.
--
-- It locks the accounts in ascending id order (the order every writer uses), then checks the batch
-- against the locked balances with the same rules as the TypeScript domain (applyEntry): every
-- account known, every posting in its account's asset, and after each entry, in order, no frozen
-- part below zero and no available part below zero unless the account may go negative. The caller
-- has checked the entries' shape (non-empty, no zero posting, zero sum per asset) and sends, per
-- account, the asset its postings use, its net change of each part and the lowest point that part
-- reaches after any entry touching it (relative to the balance before the batch): the rules then
-- come down to one comparison per account and part, which is all the database has to do.
--
-- It never refuses an entry itself. If anything is not plain — a rule would refuse an entry, an
-- account is unknown, an idempotency key is already in the journal — it writes nothing and answers
-- `declined`; the caller then runs the batch the careful way (lock, decide in TypeScript, write),
-- where each entry gets its own answer. Accepting only when every entry passes means it can never
-- accept what the TypeScript rules would refuse.
--
-- Answers the entry ids in input order and the balances of the locked accounts as they were before
-- the batch (with their ids), from which the caller derives each entry's balances after it. Its
-- statements take generic plans: planned for each call's arrays, they cost more than they run.
CREATE FUNCTION ledger_post_batch(
  account_ids bigint[], account_assets text[], available_changes numeric[], frozen_changes numeric[], available_lows numeric[], frozen_lows numeric[],
  reasons text[], reference_types text[], reference_ids text[], idempotency_keys text[], postings_hashes text[], memos text[],
  created_ats timestamptz[],
  posting_entries int[], posting_accounts bigint[], posting_assets text[], posting_buckets text[], posting_amounts numeric[],
  OUT entry_ids bigint[], OUT locked_ids bigint[], OUT available_minors numeric[], OUT frozen_minors numeric[], OUT declined text
) LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  refused boolean;
BEGIN
  -- LockRows sits above the sort: rows are locked one by one in ascending id order.
  PERFORM 1 FROM ledger_accounts l WHERE l.id = ANY(account_ids) ORDER BY l.id FOR UPDATE;
  -- A new statement, so a fresh snapshot taken after the locks are held: the balances as they are
  -- now (no one else can change them before we commit), and a duplicate key that committed while
  -- we waited for the accounts is seen below.
  SELECT array_agg(l.id), array_agg(l.available_minor), array_agg(l.frozen_minor),
         bool_or(l.asset <> c.asset OR l.frozen_minor + c.frozen_low < 0 OR (NOT l.allow_negative AND l.available_minor + c.available_low < 0))
    INTO locked_ids, available_minors, frozen_minors, refused
    FROM unnest(account_ids, account_assets, available_lows, frozen_lows) AS c(id, asset, available_low, frozen_low)
    JOIN ledger_accounts l ON l.id = c.id;
  IF cardinality(locked_ids) IS DISTINCT FROM cardinality(account_ids) THEN
    declined := 'unknown_account';
    RETURN;
  END IF;
  IF refused THEN
    declined := 'refused_entry';
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM journal_entries e WHERE e.idempotency_key = ANY(idempotency_keys)) THEN
    declined := 'idempotency_key_used';
    RETURN;
  END IF;

  UPDATE ledger_accounts a
     SET available_minor = a.available_minor + c.available_change, frozen_minor = a.frozen_minor + c.frozen_change
    FROM unnest(account_ids, available_changes, frozen_changes) AS c(id, available_change, frozen_change)
   WHERE a.id = c.id AND (c.available_change <> 0 OR c.frozen_change <> 0);
  entry_ids := ARRAY(SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) FROM generate_series(1, cardinality(reasons)));
  INSERT INTO journal_entries (id, reason, reference_type, reference_id, idempotency_key, postings_hash, memo, created_at)
    OVERRIDING SYSTEM VALUE
    SELECT entry_ids[e.position::int], e.reason, e.reference_type, e.reference_id, e.idempotency_key, e.postings_hash, e.memo, e.created_at
      FROM unnest(reasons, reference_types, reference_ids, idempotency_keys, postings_hashes, memos, created_ats) WITH ORDINALITY
           AS e(reason, reference_type, reference_id, idempotency_key, postings_hash, memo, created_at, position)
     ORDER BY e.position;
  INSERT INTO postings (entry_id, account_id, asset, bucket, amount_minor)
    SELECT entry_ids[p.entry_position], p.account_id, p.asset, p.bucket, p.amount_minor
      FROM unnest(posting_entries, posting_accounts, posting_assets, posting_buckets, posting_amounts) WITH ORDINALITY
           AS p(entry_position, account_id, asset, bucket, amount_minor, position)
     ORDER BY p.position;
END;
$$;
