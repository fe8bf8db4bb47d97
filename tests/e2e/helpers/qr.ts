import type { Page } from 'playwright-core';
import qrcode from 'qrcode-generator';

// Reading the QR code a page draws, and computing what it should show with the library itself
// (not with the app's own drawing code), so a wrong code on screen fails the test.

/** The dark modules of the QR code the page draws, as "row,col" (from its SVG path). */
export async function qrModulesShown(page: Page): Promise<string[]> {
  const path = await page.getByTestId('qr-code').locator('path').getAttribute('d');
  return [...(path ?? '').matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(([, x, y]) => `${Number(y) - 4},${Number(x) - 4}`).sort();
}

/** The dark modules of a QR code of `text` (any version, error correction M, as the apps draw it). */
export function qrModulesOf(text: string): string[] {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const dark: string[] = [];
  for (let row = 0; row < code.getModuleCount(); row++) for (let col = 0; col < code.getModuleCount(); col++) if (code.isDark(row, col)) dark.push(`${row},${col}`);
  return dark.sort();
}
