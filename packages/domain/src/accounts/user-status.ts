/**
 * What each account status allows (spec section 6). Pure: the server's session check and later
 * the withdrawal rules ask here, so the policy lives in one place.
 */
export type AccountStatus = 'active' | 'suspended' | 'banned' | 'withdrawal_forbidden';

/** Suspended and banned accounts cannot use the platform; their calls answer "user status incorrect". */
export function canUseAccount(status: AccountStatus): boolean {
  return status === 'active' || status === 'withdrawal_forbidden';
}

/** Only an active account may withdraw; "withdrawal forbidden" is a published state staff set with a reason. */
export function canWithdraw(status: AccountStatus): boolean {
  return status === 'active';
}
