import { describe, expect, it } from 'vitest';
import { qrModules } from './QrCode.tsx';

describe('qrModules', () => {
  it('draws the three finder patterns of a QR code in its corners', () => {
    const { size, dark } = qrModules('otpauth://totp/Keel:ana?secret=ABCDEFGHIJKLMNOP&issuer=Keel');
    const isDark = (row: number, col: number) => dark.some(([r, c]) => r === row && c === col);
    expect(size).toBeGreaterThanOrEqual(21);
    expect((size - 21) % 4).toBe(0);
    for (const [top, left] of [
      [0, 0],
      [0, size - 7],
      [size - 7, 0],
    ] as const) {
      // A finder is a dark 7×7 ring around a light ring around a dark 3×3 centre.
      expect(isDark(top, left)).toBe(true);
      expect(isDark(top + 1, left + 1)).toBe(false);
      expect(isDark(top + 3, left + 3)).toBe(true);
    }
  });

  it('changes with the text', () => {
    expect(qrModules('a').dark).not.toEqual(qrModules('b').dark);
  });
});
