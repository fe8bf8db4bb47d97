import type { ContractAddress } from '../address.ts';
import type { getOptionsOverviewContract, listOptionOrdersContract } from './options.contracts.ts';

// The trade screen's first reads, without zod (address.ts).

export const getOptionsOverviewAddress: ContractAddress<typeof getOptionsOverviewContract> = {
  id: 'options.overview',
  method: 'GET',
  path: '/home/options/overview',
};
export const listOptionOrdersAddress: ContractAddress<typeof listOptionOrdersContract> = {
  id: 'options.orders.list',
  method: 'GET',
  path: '/home/options/orders',
};
