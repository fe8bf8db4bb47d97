import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { normalizeTarget } from '../auth/contact-target.ts';
import { isUniqueViolation } from './wallet-support.ts';

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
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
      const [count] = await tx.query<{ total: bigint }>('SELECT count(*)::bigint AS total FROM bank_cards WHERE user_id = $1 AND removed_at IS NULL', [
        userId,
      ]);
      if (Number(count!.total) >= MAX_BANK_CARDS) throw new AppError('TOO_MANY_ITEMS', { limit: MAX_BANK_CARDS });
      const [row] = await tx.query<CardRow>(
        `INSERT INTO bank_cards (user_id, real_name, phone, bank_name, bank_account, ifsc, email, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [userId, input.realName, phone, input.bankName, input.bankAccount, input.ifsc, email, deps.now()],
      );
      return cardView(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'bank_cards_once')) throw new AppError('ALREADY_ADDED');
    throw error;
  }
}

export async function removeBankCard(deps: Deps, userId: bigint, cardId: bigint) {
  const rows = await deps.db.query('UPDATE bank_cards SET removed_at = $3 WHERE id = $1 AND user_id = $2 AND removed_at IS NULL RETURNING id', [
    cardId,
    userId,
    deps.now(),
  ]);
  if (rows.length === 0) throw new AppError('RECORD_NOT_FOUND');
  return null;
}
