/** A progress share 0–100 from decimal strings (display only: no money is computed from it). */
export function progressPercent(have: string, need: string): number {
  const needNumber = Number(need);
  if (!(needNumber > 0)) return 100;
  return Math.max(0, Math.min(100, Math.floor((Number(have) / needNumber) * 100)));
}

/** "20 %" from basis points of a fee. */
export function discountPercent(bps: number): string {
  return `${bps / 100} %`;
}
