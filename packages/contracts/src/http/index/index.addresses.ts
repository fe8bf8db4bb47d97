import type { ContractAddress } from '../address.ts';
import type { serviceUrlContract, siteContract } from './index.contracts.ts';

// The deployment's facts every page reads (the demo banner), without zod (address.ts): the shell of
// every screen asks for them, the tab screens' first render among them.

export const siteAddress: ContractAddress<typeof siteContract> = { id: 'index.site', method: 'GET', path: '/home/index/site' };

/** The customer-service URL, per language when the operator set one (the help centre's "contact us"). */
export const serviceUrlAddress: ContractAddress<typeof serviceUrlContract> = { id: 'index.serviceUrl', method: 'GET', path: '/home/index/serviceurl' };
