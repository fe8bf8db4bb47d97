import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** The dark modules of a QR code for `text`, with error correction M (readable from a screen). */
export function qrModules(text: string): { size: number; dark: [number, number][] } {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const size = code.getModuleCount();
  const dark: [number, number][] = [];
  for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) if (code.isDark(row, col)) dark.push([row, col]);
  return { size, dark };
}

/**
 * A QR code drawn as SVG rectangles by React (no HTML string is injected). Always dark on white
 * with a quiet zone, whatever the theme or text direction: scanners need that contrast.
 */
export function QrCode({ text, label, sizePx = 200 }: { text: string; label: string; sizePx?: number }) {
  const { size, dark } = useMemo(() => qrModules(text), [text]);
  const quiet = 4;
  const view = size + quiet * 2;
  return (
    <svg
      role="img"
      aria-label={label}
      width={sizePx}
      height={sizePx}
      viewBox={`0 0 ${view} ${view}`}
      shapeRendering="crispEdges"
      style={{ background: '#fff', direction: 'ltr', borderRadius: 8 }}
      data-testid="qr-code"
    >
      <path fill="#000" d={dark.map(([row, col]) => `M${col + quiet} ${row + quiet}h1v1h-1z`).join('')} />
    </svg>
  );
}
