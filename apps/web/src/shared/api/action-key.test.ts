import { ApiError } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { ActionKey } from './action-key.ts';

const keys = () => {
  let n = 0;
  return new ActionKey(() => `key-${++n}`);
};

describe('ActionKey', () => {
  it('reuses the key after an uncertain outcome for the same input', () => {
    const action = keys();
    expect(action.keyFor('a')).toBe('key-1');
    action.settle(new ApiError({ code: 500, msg: 'system error', data: null }));
    expect(action.keyFor('a')).toBe('key-1');
    action.settle(new ApiError({ code: 409, msg: 'request in progress', data: null }));
    expect(action.keyFor('a')).toBe('key-1');
    action.settle(new TypeError('network'));
    expect(action.keyFor('a')).toBe('key-1');
  });

  it('takes a new key after a definite answer or for other input', () => {
    const action = keys();
    expect(action.keyFor('a')).toBe('key-1');
    action.settle(new ApiError({ code: 400, msg: 'insufficient balance', data: null }));
    expect(action.keyFor('a')).toBe('key-2');
    action.settle();
    expect(action.keyFor('a')).toBe('key-3');
    action.settle(new ApiError({ code: 500, msg: 'system error', data: null }));
    expect(action.keyFor('b')).toBe('key-4');
  });
});
