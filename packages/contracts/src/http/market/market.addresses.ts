import type { ContractAddress } from '../address.ts';
import type { listCandlesContract, listTickersContract } from './market.contracts.ts';

// The market reads of the home and trade screens' first render, without zod (address.ts).

export const listTickersAddress: ContractAddress<typeof listTickersContract> = { id: 'market.tickers', method: 'GET', path: '/home/market/tickers' };
export const listCandlesAddress: ContractAddress<typeof listCandlesContract> = { id: 'market.candles', method: 'GET', path: '/home/market/candles' };
