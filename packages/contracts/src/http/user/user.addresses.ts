import type { ContractAddress } from '../address.ts';
import type { meContract, unreadContract } from './user.contracts.ts';

// The user's reads the tab screens' first render makes, without zod (address.ts).

export const unreadAddress: ContractAddress<typeof unreadContract> = { id: 'user.unread', method: 'GET', path: '/home/user/unread' };
export const meAddress: ContractAddress<typeof meContract> = { id: 'user.me', method: 'GET', path: '/home/user/me' };
