import { AppError } from '@keel/contracts';
import { C2C_COUNTRIES, type C2cCommand, isC2cCountry } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { parseUserAmount } from '../amount-input.ts';
import { readUpload } from '../verification/upload-image.ts';
import { C2C_ASSET, C2C_SCALE, merchantFloatLabel } from './c2c-support.ts';
import { applyC2cStep, type C2cStepExtra } from './c2c-steps.ts';
import { C2C_SELECT, type C2cRequestRow, fiatText, type MerchantRequestView, merchantRequestView, readRequestRow, usdtText } from './c2c-views.ts';

// The merchant console (issue 19): a merchant is a staff member with the merchant role; their
// profile, terms and float, the offers made to them and the orders they work.

const FLOAT_ENTRIES_SHOWN = 50;

interface MerchantRow {
  staff_id: bigint;
  display_name: string;
  payment_details: string;
  online: boolean;
}

/** The float's free and held USDT, read without creating the account. */
async function floatOf(db: Queryable, merchantId: bigint) {
  const [account] = await db.query<{ id: bigint; available_minor: string; frozen_minor: string }>(
    `SELECT id, available_minor::text AS available_minor, frozen_minor::text AS frozen_minor FROM ledger_accounts
     WHERE user_id IS NULL AND kind = 'treasury' AND label = $1 AND asset = $2`,
    [merchantFloatLabel(merchantId), C2C_ASSET],
  );
  return { accountId: account?.id ?? null, availableMinor: account ? toMinor(account.available_minor) : 0n, heldMinor: account ? toMinor(account.frozen_minor) : 0n };
}

async function profileView(db: Queryable, merchant: MerchantRow) {
  const terms = await db.query<{ country: string; currency: string; price_fiat_minor: string; min_usdt_minor: string; max_usdt_minor: string }>(
    `SELECT country, currency, price_fiat_minor::text AS price_fiat_minor, min_usdt_minor::text AS min_usdt_minor, max_usdt_minor::text AS max_usdt_minor
     FROM c2c_merchant_terms WHERE merchant_id = $1 ORDER BY country`,
    [merchant.staff_id],
  );
  const float = await floatOf(db, merchant.staff_id);
  const entries =
    float.accountId === null
      ? []
      : await db.query<{ entry_id: bigint; reason: string; memo: string | null; available: string; frozen: string; created_at: Date }>(
          `SELECT e.id AS entry_id, e.reason, e.memo,
             COALESCE(sum(p.amount_minor) FILTER (WHERE p.bucket = 'available'), 0)::text AS available,
             COALESCE(sum(p.amount_minor) FILTER (WHERE p.bucket = 'frozen'), 0)::text AS frozen, e.created_at
           FROM postings p JOIN journal_entries e ON e.id = p.entry_id
           WHERE p.account_id = $1 GROUP BY e.id ORDER BY e.id DESC LIMIT $2`,
          [float.accountId, FLOAT_ENTRIES_SHOWN],
        );
  return {
    merchantId: merchant.staff_id.toString(),
    displayName: merchant.display_name,
    paymentDetails: merchant.payment_details,
    online: merchant.online,
    terms: terms.map((row) => ({
      country: row.country,
      currency: row.currency,
      price: fiatText(toMinor(row.price_fiat_minor)),
      minUsdt: usdtText(toMinor(row.min_usdt_minor)),
      maxUsdt: usdtText(toMinor(row.max_usdt_minor)),
    })),
    float: {
      available: usdtText(float.availableMinor),
      held: usdtText(float.heldMinor),
      entries: entries.map((row) => ({
        entryId: row.entry_id.toString(),
        reason: row.reason,
        memo: row.memo,
        available: usdtText(toMinor(row.available)),
        frozen: usdtText(toMinor(row.frozen)),
        createdAtMs: row.created_at.getTime(),
      })),
    },
  };
}

export async function getMerchantProfile(deps: Pick<Deps, 'db'>, staff: StaffSession) {
  const [merchant] = await deps.db.query<MerchantRow>('SELECT staff_id, display_name, payment_details, online FROM c2c_merchants WHERE staff_id = $1', [staff.staff.id]);
  if (!merchant) throw new AppError('RECORD_NOT_FOUND');
  return profileView(deps.db, merchant);
}

/**
 * Saves the calling merchant's profile and terms (all of them, replacing the old). Terms reach
 * requests offered from now on; an offer made keeps its price. Locks the merchant's row, so it
 * does not change under an acceptance (which locks it too).
 */
export async function saveMerchantProfile(
  deps: Pick<Deps, 'db' | 'now'>,
  staff: StaffSession,
  input: { displayName: string; paymentDetails: string; online: boolean; terms: { country: string; price: string; minUsdt: string; maxUsdt: string }[]; requestId?: string },
) {
  const seen = new Set<string>();
  const terms = input.terms.map((each, index) => {
    if (!isC2cCountry(each.country) || seen.has(each.country)) throw new AppError('PARAMETER_ERROR', { field: `terms.${index}.country`, problem: seen.has(each.country) ? 'duplicate' : 'unknown' });
    seen.add(each.country);
    const minMinor = parseUserAmount(each.minUsdt, C2C_SCALE, `terms.${index}.minUsdt`);
    const maxMinor = parseUserAmount(each.maxUsdt, C2C_SCALE, `terms.${index}.maxUsdt`);
    if (maxMinor < minMinor) throw new AppError('WRONG_AMOUNT', { field: `terms.${index}.maxUsdt`, problem: 'below_minimum' });
    return { country: each.country, currency: C2C_COUNTRIES[each.country].currency, priceMinor: parseUserAmount(each.price, 2, `terms.${index}.price`), minMinor, maxMinor };
  });
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO c2c_merchants (staff_id, display_name, payment_details, online, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (staff_id) DO UPDATE SET display_name = EXCLUDED.display_name, payment_details = EXCLUDED.payment_details, online = EXCLUDED.online, updated_at = EXCLUDED.updated_at`,
      [staff.staff.id, input.displayName.trim(), input.paymentDetails, input.online, now],
    );
    await tx.query('SELECT staff_id FROM c2c_merchants WHERE staff_id = $1 FOR UPDATE', [staff.staff.id]);
    await tx.query('DELETE FROM c2c_merchant_terms WHERE merchant_id = $1', [staff.staff.id]);
    for (const each of terms) {
      await tx.query(
        'INSERT INTO c2c_merchant_terms (merchant_id, country, currency, price_fiat_minor, min_usdt_minor, max_usdt_minor) VALUES ($1, $2, $3, $4, $5, $6)',
        [staff.staff.id, each.country, each.currency, each.priceMinor.toString(), each.minMinor.toString(), each.maxMinor.toString()],
      );
    }
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: 'c2c.merchant.saved',
      targetType: 'c2c_merchant',
      targetId: staff.staff.id.toString(),
      detail: { online: input.online, countries: terms.map((each) => each.country) },
      requestId: input.requestId,
      at: now,
    });
    const [merchant] = await tx.query<MerchantRow>('SELECT staff_id, display_name, payment_details, online FROM c2c_merchants WHERE staff_id = $1', [staff.staff.id]);
    return profileView(tx, merchant!);
  });
}

const MERCHANT_STATE_WHERE = {
  offers: `r.status = 'offered' AND r.offered_merchant_id = $1`,
  open: `r.merchant_id = $1 AND r.status IN ('awaiting_payment', 'paid', 'appealing')`,
  history: `r.merchant_id = $1 AND r.status IN ('succeeded', 'failed')`,
} as const;

export async function listMerchantRequests(deps: Pick<Deps, 'db'>, staff: StaffSession, query: { state: keyof typeof MERCHANT_STATE_WHERE; page: number; pageSize: number }) {
  const where = MERCHANT_STATE_WHERE[query.state];
  const order = query.state === 'history' ? 'r.id DESC' : 'r.id';
  const rows = await deps.db.query<C2cRequestRow>(`${C2C_SELECT} WHERE ${where} ORDER BY ${order} LIMIT $2 OFFSET $3`, [
    staff.staff.id,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM c2c_requests r WHERE ${where}`, [staff.staff.id]);
  return { items: rows.map(merchantRequestView), total: count!.total };
}

/** A merchant's step on a request offered to them or theirs; the step, audit entry and answer commit together. */
export async function merchantStep(
  deps: Pick<Deps, 'db' | 'now' | 'events' | 'logger'>,
  staff: StaffSession,
  requestId: bigint,
  command: C2cCommand,
  input: { requestId?: string; extra?: C2cStepExtra },
  idempotency?: IdempotentRequest<MerchantRequestView>,
): Promise<MerchantRequestView> {
  const at = deps.now();
  const view = await deps.db.transaction(async (tx) => {
    await applyC2cStep(tx, requestId, { kind: 'merchant', merchantId: staff.staff.id }, command, at, input.extra);
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: `c2c.merchant.${command.kind}`,
      targetType: 'c2c_request',
      targetId: requestId.toString(),
      detail: { ...(input.extra?.paymentReference ? { paymentReference: input.extra.paymentReference } : {}), ...(input.extra?.appealReason ? { reason: input.extra.appealReason } : {}) },
      requestId: input.requestId,
      at,
    });
    const after = merchantRequestView((await readRequestRow(tx, requestId))!);
    await idempotency?.answerInTransaction(tx, after);
    return after;
  });
  const [row] = await deps.db.query<{ user_id: bigint }>('SELECT user_id FROM c2c_requests WHERE id = $1', [requestId]);
  if (row && command.kind !== 'decline') await publishToUser(deps, row.user_id, { kind: 'message', unread: true });
  return view;
}

/** A deposit's screenshot, for the merchant of the order or (an order under appeal) support; each view is audited. */
export async function readC2cProofForStaff(deps: Deps, staff: StaffSession, requestId: bigint, requestIdOfCall: string) {
  const row = await readRequestRow(deps.db, requestId);
  // The merchant of the order; support only once the order was sent to them (as with P2P chat images).
  const mayRead = row !== undefined && (row.merchant_id === staff.staff.id || (staff.staff.roles.includes('support') && row.appeal_by !== null));
  if (!row?.proof_upload_id || !mayRead) throw new AppError('RECORD_NOT_FOUND');
  const file = await readUpload(deps, row.proof_upload_id, row.user_id, 'c2c_proof');
  await appendAudit(deps.db, {
    staffId: staff.staff.id,
    action: 'c2c.proof.view',
    targetType: 'c2c_request',
    targetId: requestId.toString(),
    detail: {},
    requestId: requestIdOfCall,
    at: deps.now(),
  });
  return file;
}

/** Every merchant with their float, for finance staff who fund floats by house corrections. */
export async function listMerchants(deps: Pick<Deps, 'db'>) {
  const rows = await deps.db.query<MerchantRow & { username: string; countries: string[] | null }>(
    `SELECT m.staff_id, m.display_name, m.payment_details, m.online, s.username,
       (SELECT array_agg(t.country ORDER BY t.country) FROM c2c_merchant_terms t WHERE t.merchant_id = m.staff_id) AS countries
     FROM c2c_merchants m JOIN staff s ON s.id = m.staff_id ORDER BY m.staff_id`,
  );
  const items = [];
  for (const row of rows) {
    const float = await floatOf(deps.db, row.staff_id);
    items.push({
      merchantId: row.staff_id.toString(),
      displayName: row.display_name,
      staffUsername: row.username,
      online: row.online,
      countries: row.countries ?? [],
      floatAvailable: usdtText(float.availableMinor),
      floatHeld: usdtText(float.heldMinor),
    });
  }
  return { items };
}
