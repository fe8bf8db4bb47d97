import { describe, expect, it } from 'vitest';
import { discountPercent, progressPercent } from './vip-figures.ts';

describe('VIP page figures', () => {
  it('shows progress as a bounded whole percentage', () => {
    expect(progressPercent('125000.000000', '250000.000000')).toBe(50);
    expect(progressPercent('300000', '250000')).toBe(100);
    expect(progressPercent('0', '0')).toBe(100);
    expect(progressPercent('1', '3')).toBe(33);
  });
  it('shows a discount in percent of the fee', () => {
    expect(discountPercent(2000)).toBe('20 %');
    expect(discountPercent(0)).toBe('0 %');
  });
});
