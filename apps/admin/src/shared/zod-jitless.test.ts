import { describe, expect, it } from 'vitest';
import './zod-jitless.ts';
import { z } from 'zod';

describe('zod without eval (the CSP keeps script-src free of unsafe-eval)', () => {
  it('is jitless through zod’s own settings, and still parses', () => {
    expect(z.config().jitless).toBe(true);
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
