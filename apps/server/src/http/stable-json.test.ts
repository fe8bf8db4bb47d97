import { describe, expect, it } from 'vitest';
import { stableJson } from './route.ts';

/** The recursive definition the request fingerprint used before (its answers must not change: stored fingerprints compare with them). */
function recursiveStableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursiveStableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${recursiveStableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('the request fingerprint JSON', () => {
  it('writes what the recursive definition writes, keys sorted', () => {
    const samples: unknown[] = [
      null,
      0,
      'text "quoted"',
      [],
      {},
      { b: 1, a: [true, null, { d: 'x', c: [] }], 'z"': { y: 2.5 } },
      [[[1, 2], []], { k: [{}] }],
      { amount: '10', symbol: 'BTC/USDT', nested: { list: [3, 2, 1] } },
    ];
    for (const sample of samples) expect(stableJson(sample)).toBe(recursiveStableJson(sample));
    expect(stableJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('takes a body nested thousands deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => recursiveStableJson(deep)).toThrow(RangeError);
    expect(stableJson(deep)).toHaveLength(200_000);
  });
});
