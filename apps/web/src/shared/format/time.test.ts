import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './time.ts';

describe('time formatting (spec section 9)', () => {
  // Built from local parts, so the expectation holds in any time zone the tests run in.
  const local = new Date(2026, 0, 5, 7, 8, 9).toISOString();

  it('shows a date as year-month-day', () => {
    expect(formatDate(local)).toBe('2026-01-05');
  });

  it('shows a timestamp as year/month/day hour:minute:second', () => {
    expect(formatDateTime(local)).toBe('2026/01/05 07:08:09');
  });

  it('shows nothing for an unreadable time', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('')).toBe('');
  });
});
