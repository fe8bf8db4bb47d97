import {
  getAboutContract,
  getContentContract,
  getContentHomeContract,
  listContentContract,
  listHelpCategoriesContract,
  searchHelpContract,
  serviceUrlContract,
} from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import {
  getAboutAddress,
  getContentAddress,
  getContentHomeAddress,
  listContentAddress,
  listHelpCategoriesAddress,
  searchHelpAddress,
  serviceUrlAddress,
} from './content-addresses.ts';

describe('the content reader’s addresses', () => {
  it('name the id, method and path of their contracts', () => {
    const pairs = [
      [listContentAddress, listContentContract],
      [getContentAddress, getContentContract],
      [getAboutAddress, getAboutContract],
      [getContentHomeAddress, getContentHomeContract],
      [listHelpCategoriesAddress, listHelpCategoriesContract],
      [searchHelpAddress, searchHelpContract],
      [serviceUrlAddress, serviceUrlContract],
    ] as const;
    for (const [address, contract] of pairs) {
      expect({ id: address.id, method: address.method, path: address.path }).toEqual({ id: contract.id, method: contract.method, path: contract.path });
    }
  });
});
