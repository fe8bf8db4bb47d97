import type { ReactNode } from 'react';
import { Amount } from '../../shared/ui/Amount.tsx';
import { changeDirection } from './tickers.ts';

/**
 * A 24 h change as the market screens show it: signed, with two decimals and "%", an arrow and the
 * colour of its direction. `children` follow the figure (a label).
 */
export function ChangeTag({ change, testId, children }: { change: string; testId?: string; children?: ReactNode }) {
  const direction = changeDirection(change);
  return (
    <span className={`change change-${direction}`} data-testid={testId}>
      <span aria-hidden="true">{direction === 'up' ? '▲' : direction === 'down' ? '▼' : '•'}</span>
      <Amount value={change} min={2} max={2} signed suffix="%" />
      {children}
    </span>
  );
}
