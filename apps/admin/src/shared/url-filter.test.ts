import { listStaffOptionOrdersContract, listStaffWithdrawalsContract, listUsersContract } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { changeFilter, filterFromSearch, searchFromFilter } from './url-filter.ts';

const withdrawals = listStaffWithdrawalsContract.query!;
const orders = listStaffOptionOrdersContract.query!;
const users = listUsersContract.query!;
const search = (text: string) => new URLSearchParams(text);

describe('a list filter in the query string', () => {
  it('reads the contract’s defaults from a bare URL (the page size is the app’s)', () => {
    expect(filterFromSearch(withdrawals, search(''))).toEqual({ page: 1, pageSize: 20, status: 'pending' });
    expect(filterFromSearch(withdrawals, search('pageSize=100')).pageSize).toBe(20);
  });

  it('reads every filter a shared link names', () => {
    expect(filterFromSearch(withdrawals, search('status=approved&channel=USDT-TRC20&user=alice&page=3'))).toMatchObject({
      status: 'approved',
      channel: 'USDT-TRC20',
      user: 'alice',
      page: 3,
    });
  });

  it('leaves out a value the contract refuses, and keeps the others', () => {
    expect(filterFromSearch(withdrawals, search('status=paid&channel=USDT-TRC20&page=x'))).toEqual({
      page: 1,
      pageSize: 20,
      status: 'pending',
      channel: 'USDT-TRC20',
    });
    expect(filterFromSearch(orders, search('userId=12x&status=won'))).toEqual({ page: 1, pageSize: 20, status: 'won' });
    expect(filterFromSearch(orders, search('userId=42'))).toMatchObject({ userId: '42' });
  });

  it('writes only what differs from the defaults, in the schema’s order, so one filter has one URL', () => {
    expect(searchFromFilter(withdrawals, { page: 1, pageSize: 20, status: 'pending' })).toBe('');
    expect(searchFromFilter(withdrawals, { user: 'alice', status: 'approved', page: 2, channel: undefined })).toBe('?page=2&user=alice&status=approved');
    expect(searchFromFilter(users, { q: '', page: 1 })).toBe('');
  });

  it('reads back what it writes', () => {
    const filter = { page: 4, pageSize: 20, status: 'failed' as const, channel: 'BTC' as const, user: 'bob smith' };
    expect(filterFromSearch(withdrawals, search(searchFromFilter(withdrawals, filter)))).toEqual(filter);
  });

  it('starts a changed filter again at page 1, and keeps the page when only the page changes', () => {
    const current = { page: 3, status: 'pending', user: 'alice' };
    expect(changeFilter(current, { status: 'approved' })).toEqual({ status: 'approved', user: 'alice' });
    expect(changeFilter(current, { page: 4 })).toEqual({ page: 4, status: 'pending', user: 'alice' });
    expect(changeFilter(current, { user: 'alice' })).toEqual(current);
  });
});
