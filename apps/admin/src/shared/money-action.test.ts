import { ApiError, errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { keyForClick, outcomeUnknown } from './money-action.ts';

let counter = 0;
const fresh = () => `key-${++counter}`;

describe('the Idempotency-Key of a money-moving click', () => {
  it('is new for every click, unless it repeats a request whose outcome is unknown', () => {
    expect(keyForClick(null, 'approve #7', fresh)).toBe('key-1');
    expect(keyForClick(null, 'approve #7', fresh)).toBe('key-2');
    const unsettled = { signature: 'approve #7', key: 'key-2' };
    expect(keyForClick(unsettled, 'approve #7', fresh)).toBe('key-2');
    // A different request (a rejection, another record) never reuses it.
    expect(keyForClick(unsettled, 'reject #7', fresh)).toBe('key-3');
  });

  it('keeps the key only when nobody can know the outcome: a failure or the first try still running', () => {
    expect(outcomeUnknown(new ApiError({ code: 500, msg: 'system error', data: null }))).toBe(true);
    expect(outcomeUnknown(new ApiError({ code: 409, msg: errorCatalogue.REQUEST_IN_PROGRESS.msg, data: null }))).toBe(true);
    expect(outcomeUnknown(new ApiError({ code: 400, msg: errorCatalogue.SECOND_APPROVER_REQUIRED.msg, data: null }))).toBe(false);
    expect(outcomeUnknown(new Error('anything else'))).toBe(false);
  });
});
