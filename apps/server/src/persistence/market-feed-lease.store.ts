import type { Queryable } from './db.ts';

/**
 * The market feed lease: one row per feed name, held by one node at a time. Expiry uses the
 * database clock (clock_timestamp()), so nodes with drifting clocks still agree on who holds it.
 */
export interface LeaseRequest {
  name: string;
  holder: string;
  ttlMs: number;
}

/**
 * Takes the lease if it is free, expired or already ours, and extends it by `ttlMs`; one
 * conditional upsert, so two nodes asking at once cannot both win. Returns whether we hold it.
 */
export async function takeOrRenewLease(db: Queryable, lease: LeaseRequest): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO market_feed_lease (name, holder, expires_at, acquired_at)
     VALUES ($1, $2, clock_timestamp() + $3::int * interval '1 millisecond', clock_timestamp())
     ON CONFLICT (name) DO UPDATE SET
       holder = EXCLUDED.holder,
       expires_at = EXCLUDED.expires_at,
       acquired_at = CASE WHEN market_feed_lease.holder = EXCLUDED.holder THEN market_feed_lease.acquired_at ELSE EXCLUDED.acquired_at END
     WHERE market_feed_lease.holder = EXCLUDED.holder OR market_feed_lease.expires_at <= clock_timestamp()
     RETURNING holder`,
    [lease.name, lease.holder, Math.round(lease.ttlMs)],
  );
  return rows.length > 0;
}

/**
 * Takes the lease whoever holds it. Only for a database no other process can open (embedded
 * PGlite), where a row left by a previous run of this same process would otherwise delay prices
 * until it expired.
 */
export async function seizeLease(db: Queryable, lease: LeaseRequest): Promise<void> {
  await db.query(
    `INSERT INTO market_feed_lease (name, holder, expires_at, acquired_at)
     VALUES ($1, $2, clock_timestamp() + $3::int * interval '1 millisecond', clock_timestamp())
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at, acquired_at = EXCLUDED.acquired_at`,
    [lease.name, lease.holder, Math.round(lease.ttlMs)],
  );
}

/** Gives the lease up at once (on shutdown), so another node need not wait for it to expire. */
export async function releaseLease(db: Queryable, lease: Omit<LeaseRequest, 'ttlMs'>): Promise<void> {
  await db.query(`UPDATE market_feed_lease SET expires_at = clock_timestamp() WHERE name = $1 AND holder = $2`, [lease.name, lease.holder]);
}

export async function leaseHolder(db: Queryable, name: string): Promise<{ holder: string; expired: boolean } | undefined> {
  const [row] = await db.query<{ holder: string; expired: boolean }>(
    `SELECT holder, expires_at <= clock_timestamp() AS expired FROM market_feed_lease WHERE name = $1`,
    [name],
  );
  return row;
}
