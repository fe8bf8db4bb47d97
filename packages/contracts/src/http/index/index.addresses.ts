import type { ContractAddress } from '../address.ts';
import type { siteContract } from './index.contracts.ts';

// The deployment's facts every page reads (the demo banner), without zod (address.ts): the shell of
// every screen asks for them, the tab screens' first render among them.

export const siteAddress: ContractAddress<typeof siteContract> = { id: 'index.site', method: 'GET', path: '/home/index/site' };
