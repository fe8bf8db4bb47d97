import type { Deps } from '../../deps.ts';
import { normalizeTarget } from '../auth/contact-target.ts';
import { addWithinLimit, removeOwnRow } from './wallet-support.ts';

/** A published bound on the bank cards a user keeps. */
export const MAX_BANK_CARDS = 10;

interface CardRow {
  id: bigint;
  real_name: string;
  phone: string;
  bank_name: string;
  bank_account: string;
  ifsc: string;
  email: string;
  created_at: Date;
}

function cardView(row: CardRow) {
  return {
    id: row.id.toString(),
    realName: row.real_name,
    phone: row.phone,
    bankName: row.bank_name,
    bankAccount: row.bank_account,
    ifsc: row.ifsc,
    email: row.email,
    createdAt: row.created_at.toISOString(),
  };
}

export async function listBankCards(deps: Deps, userId: bigint) {
  const rows = await deps.db.query<CardRow>('SELECT * FROM bank_cards WHERE user_id = $1 AND removed_at IS NULL ORDER BY id DESC', [userId]);
  return { items: rows.map(cardView) };
}

/**
 * Adds a bank card. The contract checks the account number (9–18 digits) and the IFSC code (four
 * letters, 0, six letters or digits); here the phone is brought to international form ("wrong phone
 * number") and the e-mail checked ("incorrect email format"), as everywhere else in Keel.
 */
export async function addBankCard(
  deps: Deps,
  userId: bigint,
  input: { realName: string; phone: string; bankName: string; bankAccount: string; ifsc: string; email: string },
) {
  const phone = normalizeTarget('sms', input.phone, 'body.phone');
  const email = normalizeTarget('email', input.email, 'body.email');
  return addWithinLimit(deps.db, { userId, table: 'bank_cards', limit: MAX_BANK_CARDS, uniqueIndex: 'bank_cards_once' }, async (tx) => {
    const [row] = await tx.query<CardRow>(
      `INSERT INTO bank_cards (user_id, real_name, phone, bank_name, bank_account, ifsc, email, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [userId, input.realName, phone, input.bankName, input.bankAccount, input.ifsc, email, deps.now()],
    );
    return cardView(row!);
  });
}

export function removeBankCard(deps: Deps, userId: bigint, cardId: bigint) {
  return removeOwnRow(deps.db, { userId, table: 'bank_cards', id: cardId, at: deps.now() });
}
