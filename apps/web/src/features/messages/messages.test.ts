import { describe, expect, it } from 'vitest';
import { newestId } from './messages.ts';

describe('newestId', () => {
  it('compares ids as integers, not as text', () => {
    expect(newestId([{ id: '9' }, { id: '10' }, { id: '2' }])).toBe('10');
    expect(newestId([{ id: '9007199254740993' }, { id: '9007199254740992' }])).toBe('9007199254740993');
  });

  it('is null for no messages, and skips what is not an id', () => {
    expect(newestId([])).toBeNull();
    expect(newestId([{ id: 'x' }, { id: '3' }])).toBe('3');
  });
});
