-- Proof of liabilities (issue 22, ADR 0040 for the tree, ADR 0042 for the snapshots): at each
-- scheduled time (and when an admin asks) one repeatable-read transaction reads every user's
-- balances, builds the Merkle-sum tree and publishes its root, totals and leaf count. A published
-- snapshot is never changed or removed; its levels and each user's salt and position are kept so
-- any user can fetch their inclusion proof later.

CREATE TABLE liability_snapshots (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('scheduled', 'requested')),
  -- The scheduled time a `scheduled` snapshot stands for: one per time, whichever node takes it.
  slot_at        timestamptz UNIQUE,
  requested_by   bigint REFERENCES staff (id),
  requested_at   timestamptz NOT NULL,
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published')),
  taken_at       timestamptz,
  -- [{ "code": "BTC", "scale": 8 }, …]: the order of every vector of amounts.
  assets         jsonb,
  leaf_count     integer CHECK (leaf_count > 0),
  root_hash      text CHECK (root_hash ~ '^[0-9a-f]{64}$'),
  -- Decimal strings of minor units, in the assets' order: the root's sums.
  totals_minor   jsonb,
  -- The same totals summed by SQL over the users' accounts in the same transaction: the ledger's own figure.
  ledger_totals_minor jsonb,
  CHECK ((kind = 'scheduled') = (slot_at IS NOT NULL)),
  CHECK ((kind = 'requested') = (requested_by IS NOT NULL)),
  CHECK ((status = 'published') = (taken_at IS NOT NULL AND assets IS NOT NULL AND leaf_count IS NOT NULL AND root_hash IS NOT NULL
                                   AND totals_minor IS NOT NULL AND ledger_totals_minor IS NOT NULL))
);

CREATE INDEX liability_snapshots_pending ON liability_snapshots (id) WHERE status = 'pending';
CREATE INDEX liability_snapshots_published ON liability_snapshots (id) WHERE status = 'published';

-- The tree, one row per level (leaves first): each node its 32-byte hash, then 32 bytes per asset.
CREATE TABLE liability_snapshot_levels (
  snapshot_id  bigint NOT NULL REFERENCES liability_snapshots (id),
  level        integer NOT NULL CHECK (level >= 0),
  nodes        bytea NOT NULL,
  PRIMARY KEY (snapshot_id, level)
);

-- Where each user's leaf is, and its salt: given to that user only, with their proof.
CREATE TABLE liability_snapshot_leaves (
  snapshot_id  bigint NOT NULL REFERENCES liability_snapshots (id),
  user_id      bigint NOT NULL REFERENCES users (id),
  leaf_index   integer NOT NULL CHECK (leaf_index >= 0),
  salt         bytea NOT NULL CHECK (length(salt) = 32),
  PRIMARY KEY (snapshot_id, user_id)
);

-- Published snapshots are append-only: a pending one becomes published once, and nothing changes after.
CREATE FUNCTION liability_snapshot_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.status = 'published' THEN
    RAISE EXCEPTION 'a published liability snapshot is never changed';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER liability_snapshots_final BEFORE UPDATE OR DELETE ON liability_snapshots
  FOR EACH ROW EXECUTE FUNCTION liability_snapshot_is_final();

CREATE FUNCTION liability_snapshot_parts_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the levels and leaves of a liability snapshot are never changed';
END;
$$;
CREATE TRIGGER liability_snapshot_levels_final BEFORE UPDATE OR DELETE ON liability_snapshot_levels
  FOR EACH ROW EXECUTE FUNCTION liability_snapshot_parts_are_final();
CREATE TRIGGER liability_snapshot_leaves_final BEFORE UPDATE OR DELETE ON liability_snapshot_leaves
  FOR EACH ROW EXECUTE FUNCTION liability_snapshot_parts_are_final();
