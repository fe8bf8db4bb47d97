import { randomBytes } from 'node:crypto';
import { AppError } from '@keel/contracts';
import {
  buildSiweMessage,
  canUseAccount,
  checkAddress,
  checkSiweFields,
  type ReceivedSiweFields,
  SIWE_STATEMENT,
  siweDomainOf,
  WALLET_NONCE_TTL_MS,
  type WalletConnectProblem,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { createUserSession, type NewSession } from '../../persistence/sessions.repository.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { acceptTotpCode } from '../user/two-step-login.ts';

/**
 * Wallet connect by a signed message (issue 21, ADR 0047): Sign-In-With-Ethereum (EIP-4361).
 * The server writes the message around a nonce it stores; the wallet signs it; the message comes
 * back with the signature and is checked field by field (domain, URI, chain, expiry), then the
 * signature (viem, secp256k1 recovery), and the nonce is spent by one conditional UPDATE in the
 * transaction that logs in or binds: of two requests with the same signed message, one wins.
 */

export type WalletConnectPurpose = 'login' | 'bind';

/** Rows kept this long past their expiry, so a late replay is still told "expired". */
const KEEP_EXPIRED_NONCES_MS = 24 * 3_600_000;

function refused(problem: WalletConnectProblem): AppError {
  return new AppError('WALLET_CONNECTION_FAILED', { problem });
}

/** Keel's public origin as browsers see it (PUBLIC_ORIGIN; otherwise localhost on the port). */
export function publicOriginOf(deps: Pick<Deps, 'config'>): string {
  return deps.config.PUBLIC_ORIGIN ?? `http://localhost:${deps.config.PORT}`;
}

function normalAddress(text: string): string {
  const checked = checkAddress('ethereum', text);
  if (!checked.ok) throw refused('bad_message');
  return checked.address;
}

/** Issues a nonce and the message the wallet is to sign with it. */
export async function issueWalletNonce(deps: Deps, input: { purpose: WalletConnectPurpose; address: string; chainId: number }) {
  const chainId = deps.config.WALLET_CONNECT_CHAIN_ID;
  if (input.chainId !== chainId) throw refused('wrong_chain');
  const address = normalAddress(input.address);
  const origin = publicOriginOf(deps);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + WALLET_NONCE_TTL_MS);
  // 128 random bits as letters and digits (EIP-4361: at least 8 alphanumeric characters).
  const nonce = randomBytes(16).toString('hex');
  await deps.db.query('DELETE FROM wallet_nonces WHERE expires_at < $1', [new Date(now.getTime() - KEEP_EXPIRED_NONCES_MS)]);
  await deps.db.query(
    'INSERT INTO wallet_nonces (nonce, purpose, address, chain_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [nonce, input.purpose, address, chainId, now, expiresAt],
  );
  const message = buildSiweMessage({
    domain: siweDomainOf(origin),
    address,
    statement: SIWE_STATEMENT,
    uri: origin,
    chainId,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  return { nonce, message, expiresAt: expiresAt.toISOString() };
}

interface CheckedMessage {
  address: string;
  nonce: string;
  chainId: number;
}

/**
 * The message's fields and its signature, before any database work: a message for another site or
 * chain, stale, or not signed by its address is refused here, naming the problem. Never throws
 * anything but the catalogue's refusal, whatever the text.
 */
async function checkSignedMessage(deps: Deps, message: string, signature: string): Promise<CheckedMessage> {
  const { parseSiweMessage } = await import('viem/siwe');
  let received: ReceivedSiweFields;
  try {
    received = parseSiweMessage(message) as ReceivedSiweFields;
  } catch {
    throw refused('bad_message');
  }
  const origin = publicOriginOf(deps);
  const problem = checkSiweFields(received, {
    domain: siweDomainOf(origin),
    origin,
    chainId: deps.config.WALLET_CONNECT_CHAIN_ID,
    nowMs: deps.now().getTime(),
  });
  if (problem) throw refused(problem);
  const address = normalAddress(received.address!);
  const { verifyMessage } = await import('viem');
  let valid = false;
  try {
    valid = await verifyMessage({ address: address as `0x${string}`, message, signature: signature as `0x${string}` });
  } catch {
    valid = false;
  }
  if (!valid) throw refused('bad_signature');
  return { address, nonce: received.nonce!, chainId: received.chainId! };
}

/**
 * Spends the nonce in `tx`: one conditional UPDATE, so of two transactions only one finds it
 * unused. A nonce that is unknown, spent, expired, or issued for another purpose or address is
 * refused with the reason.
 */
async function spendNonce(tx: Queryable, checked: CheckedMessage, purpose: WalletConnectPurpose, now: Date): Promise<void> {
  const [spent] = await tx.query<{ nonce: string }>(
    `UPDATE wallet_nonces SET used_at = $2
     WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2 AND purpose = $3 AND address = $4 AND chain_id = $5
     RETURNING nonce`,
    [checked.nonce, now, purpose, checked.address, checked.chainId],
  );
  if (spent) return;
  const [row] = await tx.query<{ used_at: Date | null; expires_at: Date; purpose: string; address: string }>(
    'SELECT used_at, expires_at, purpose, address FROM wallet_nonces WHERE nonce = $1',
    [checked.nonce],
  );
  if (!row) throw refused('nonce_unknown');
  if (row.used_at !== null) throw refused('nonce_used');
  if (row.expires_at.getTime() <= now.getTime()) throw refused('nonce_expired');
  throw refused('bad_message');
}

interface BindingRow {
  user_id: bigint;
  address: string;
  chain_id: number;
  bound_at: Date;
}

function bindingView(deps: Deps, row: BindingRow | undefined) {
  return {
    address: row?.address ?? null,
    chainId: deps.config.WALLET_CONNECT_CHAIN_ID,
    boundAt: row ? row.bound_at.toISOString() : null,
  };
}

export async function getWalletBinding(deps: Deps, userId: bigint) {
  const [row] = await deps.db.query<BindingRow>('SELECT * FROM wallet_bindings WHERE user_id = $1', [userId]);
  return bindingView(deps, row);
}

/** The address bound to `userId`, for the address book (EIP-55 form), or undefined. */
export async function boundAddressOf(db: Queryable, userId: bigint): Promise<string | undefined> {
  const [row] = await db.query<{ address: string }>('SELECT address FROM wallet_bindings WHERE user_id = $1', [userId]);
  return row?.address;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Binds the signed message's address to `user`, with the payment password (its shared attempt
 * lock). One address per account; an address bound to another account is refused. The nonce is
 * spent in the binding's transaction.
 */
export async function bindWallet(deps: Deps, user: UserRow, input: { message: string; signature: string; paymentPassword: string }) {
  const checked = await checkSignedMessage(deps, input.message, input.signature);
  await checkPaymentPassword(deps, user, input.paymentPassword);
  const now = deps.now();
  try {
    const row = await deps.db.transaction(async (tx) => {
      await spendNonce(tx, checked, 'bind', now);
      const [taken] = await tx.query<BindingRow>('SELECT * FROM wallet_bindings WHERE user_id = $1 OR address = $2', [user.id, checked.address]);
      if (taken) throw refused(String(taken.user_id) === String(user.id) ? 'already_bound' : 'bound_elsewhere');
      const [inserted] = await tx.query<BindingRow>(
        'INSERT INTO wallet_bindings (user_id, address, chain_id, bound_at) VALUES ($1, $2, $3, $4) RETURNING *',
        [user.id, checked.address, checked.chainId, now],
      );
      // The user hears of it: someone else in their session could log in with their own wallet from now on.
      await messageUser(tx, user.id, { title: 'notify.walletConnect.bound.title', body: 'notify.walletConnect.bound.body' }, { address: checked.address }, now);
      return inserted!;
    });
    await publishToUser(deps, user.id, { kind: 'message', unread: true });
    return bindingView(deps, row);
  } catch (error) {
    // Two accounts binding the same address at once: the unique index decides.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw refused('bound_elsewhere');
    throw error;
  }
}

/** Unbinds the account's address, with the payment password. The address book is left as it is. */
export async function unbindWallet(deps: Deps, user: UserRow, input: { paymentPassword: string }) {
  await checkPaymentPassword(deps, user, input.paymentPassword);
  const removed = await deps.db.query('DELETE FROM wallet_bindings WHERE user_id = $1 RETURNING user_id', [user.id]);
  if (removed.length === 0) throw refused('not_bound');
  return bindingView(deps, undefined);
}

/** What a spent nonce turned into: a session, or a wrong authenticator code (the nonce stays spent). */
type LoginOutcome = { ok: true; user: UserRow; session: NewSession } | { ok: false };

/**
 * Logs in the account the signed address is bound to, with a session made exactly as the password
 * login makes it. An account with two-step login needs its authenticator code: asked for before
 * the nonce is spent (the same message can come back with the code), and a wrong code spends it.
 */
export async function loginWithWallet(
  deps: Deps,
  input: { message: string; signature: string; totp?: string; clientIp?: string; userAgent?: string },
): Promise<{ user: UserRow; session: NewSession }> {
  const checked = await checkSignedMessage(deps, input.message, input.signature);
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx): Promise<LoginOutcome> => {
    await spendNonce(tx, checked, 'login', now);
    const [user] = await tx.query<UserRow>(
      'SELECT u.* FROM users u JOIN wallet_bindings b ON b.user_id = u.id WHERE b.address = $1',
      [checked.address],
    );
    if (!user) throw new AppError('LOGIN_FAILED');
    if (user.totp_secret) {
      if (!input.totp) throw new AppError('TWO_STEP_CODE_REQUIRED');
      if (!(await acceptTotpCode(tx, user.id, user.totp_secret, input.totp, now.getTime()))) return { ok: false };
    }
    if (!canUseAccount(user.status)) throw new AppError('ACCOUNT_BANNED');
    const session = await createUserSession(tx, {
      userId: user.id,
      now,
      ttlHours: deps.config.SESSION_TTL_HOURS,
      clientIp: input.clientIp,
      userAgent: input.userAgent,
    });
    return { ok: true, user, session };
  });
  if (!outcome.ok) throw new AppError('WRONG_VERIFICATION_CODE');
  return outcome;
}
