import type { ContractAddress } from '../address.ts';
import type { listAccountsContract } from './assets.contracts.ts';

// The balances the home screen's first render reads (the total in USDT), without zod (address.ts).

export const listAccountsAddress: ContractAddress<typeof listAccountsContract> = { id: 'assets.accounts', method: 'GET', path: '/home/assets/accounts' };

/** The user's account types (spec section 3); plain data, so a screen can name them without zod. */
export const userAccountKinds = ['coin', 'fiat', 'innovation', 'defi', 'leveraged', 'options'] as const;
