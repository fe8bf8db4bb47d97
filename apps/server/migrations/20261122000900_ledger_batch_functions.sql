-- Group commit of ledger entries (ADR 0010). A batch of entries takes two statements between BEGIN
-- and COMMIT: lock its accounts and read its idempotency keys, then write. Both are functions so
-- their plans are cached per connection (a batch statement costs more to plan than to run), and the
-- domain rules stay in TypeScript between the two. Neither decides anything: they read and write.

-- Locks the accounts in ascending id order (the one order every writer uses) and answers them,
-- then answers the journal entries already holding any of the keys. The key query is a second
-- statement of a VOLATILE function, so under READ COMMITTED it takes a fresh snapshot after the
-- locks are held: a duplicate that committed while we waited for its accounts is seen, as in postEntry.
CREATE FUNCTION ledger_lock_batch(account_ids bigint[], idempotency_keys text[])
RETURNS TABLE (
  id               bigint,
  asset            text,
  available_minor  numeric,
  frozen_minor     numeric,
  allow_negative   boolean,
  idempotency_key  text,
  postings_hash    text
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT a.id, a.asset, a.available_minor, a.frozen_minor, a.allow_negative, NULL::text, NULL::text
      FROM ledger_accounts a WHERE a.id = ANY(account_ids) ORDER BY a.id FOR UPDATE;
  IF cardinality(idempotency_keys) > 0 THEN
    RETURN QUERY
      SELECT e.id, NULL::text, NULL::numeric, NULL::numeric, NULL::boolean, e.idempotency_key, e.postings_hash
        FROM journal_entries e WHERE e.idempotency_key = ANY(idempotency_keys);
  END IF;
END;
$$;

-- Writes what the batch accepted: the new balances of the accounts it changed, its entries and
-- their postings (posting_entries[i] is the 1-based position of posting i's entry). Entry ids are
-- drawn up front and answered in input order, so each posting and each caller gets its entry's id
-- without relying on the order rows happen to be inserted. The balance CHECKs, the foreign keys and
-- the append-only triggers apply as to any other write.
CREATE FUNCTION ledger_write_batch(
  account_ids bigint[], available_minors numeric[], frozen_minors numeric[],
  reasons text[], reference_types text[], reference_ids text[], idempotency_keys text[], postings_hashes text[], memos text[],
  created_ats timestamptz[],
  posting_entries int[], posting_accounts bigint[], posting_assets text[], posting_buckets text[], posting_amounts numeric[]
) RETURNS bigint[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  entry_ids bigint[];
BEGIN
  UPDATE ledger_accounts a SET available_minor = b.available_minor, frozen_minor = b.frozen_minor
    FROM unnest(account_ids, available_minors, frozen_minors) AS b(id, available_minor, frozen_minor)
   WHERE a.id = b.id;
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
  RETURN entry_ids;
END;
$$;
