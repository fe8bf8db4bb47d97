import type {
  ContractAddress,
  getAboutContract,
  getContentContract,
  getContentHomeContract,
  listContentContract,
  listHelpCategoriesContract,
  searchHelpContract,
  serviceUrlContract,
} from '@keel/contracts';

/**
 * The content reader's calls as addresses (id, method, path; contracts http/address.ts), not the
 * contracts themselves: the home and market tabs show content and must not pull zod into their
 * first render (ADR 0025, `src/build/unwanted-imports.ts`). The types are the contracts', and
 * `content-addresses.test.ts` checks each address against its contract.
 */
export const listContentAddress: ContractAddress<typeof listContentContract> = { id: 'content.list', method: 'GET', path: '/home/content/items' };
export const getContentAddress: ContractAddress<typeof getContentContract> = { id: 'content.item', method: 'GET', path: '/home/content/items/:itemId' };
export const getAboutAddress: ContractAddress<typeof getAboutContract> = { id: 'content.about', method: 'GET', path: '/home/content/about' };
export const getContentHomeAddress: ContractAddress<typeof getContentHomeContract> = { id: 'content.home', method: 'GET', path: '/home/content/home' };
export const listHelpCategoriesAddress: ContractAddress<typeof listHelpCategoriesContract> = {
  id: 'content.helpCategories',
  method: 'GET',
  path: '/home/content/help/categories',
};
export const searchHelpAddress: ContractAddress<typeof searchHelpContract> = { id: 'content.search', method: 'GET', path: '/home/content/help/search' };

/** The customer-service URL, per language when the operator set one (the help centre's "contact us"). */
export const serviceUrlAddress: ContractAddress<typeof serviceUrlContract> = { id: 'index.serviceUrl', method: 'GET', path: '/home/index/serviceurl' };
