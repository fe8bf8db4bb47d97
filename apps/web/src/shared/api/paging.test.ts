import { describe, expect, it } from 'vitest';
import { pageCount, pageFromQuery } from './paging.ts';

describe('paging', () => {
  it('reads the page from the address, page 1 for anything else', () => {
    expect(pageFromQuery(null)).toBe(1);
    expect(pageFromQuery('3')).toBe(3);
    expect(pageFromQuery('-1')).toBe(1);
    expect(pageFromQuery('abc')).toBe(1);
    expect(pageFromQuery('100001')).toBe(1);
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
  });
});
