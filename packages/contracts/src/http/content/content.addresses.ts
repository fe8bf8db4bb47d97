import type { ContractAddress } from '../address.ts';
import type {
  getAboutContract,
  getContentContract,
  getContentHomeContract,
  listContentContract,
  listHelpCategoriesContract,
  searchHelpContract,
} from './content.contracts.ts';

// The content reader's calls as addresses (id, method, path; address.ts), not the contracts
// themselves: the home and market tabs show content and must not pull zod into their first render
// (ADR 0025). addresses.test.ts checks each against its contract.

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
