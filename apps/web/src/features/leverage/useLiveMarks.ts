import type { LeverageMarkPrice } from '@keel/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTicks } from '../../shared/realtime/realtime.ts';
import { addPushedTick, forgetPushedTicks, needsServerMark, noPushedTicks, type PushedTicks, type ShownMark, shownMark } from './mark-prices.ts';

/**
 * The live mark price of each market in `wanted` (mark-prices.ts): the server's marks (`server`,
 * the newest answer per market), then computed from the ticks pushed over `/ws`. Every pushed tick is taken in at once
 * (each market's run must have no gap); the screen renders again at most once per animation frame,
 * and only for a tick of a market it shows. While a market's run is too short to compute its mark
 * and a tick is newer than the server's mark, `refreshServerMarks` asks the server again.
 */
export function useLiveMarks(
  wanted: readonly string[],
  server: ReadonlyMap<string, LeverageMarkPrice>,
  refreshServerMarks: () => void,
): ReadonlyMap<string, ShownMark | null> {
  const pushed = useRef<PushedTicks>(noPushedTicks);
  const [version, setVersion] = useState(0);
  const frame = useRef<number | null>(null);
  const wantedKey = wanted.join(',');
  const wantedNow = useRef(wanted);
  wantedNow.current = wanted;

  useTicks(
    (tick) => {
      const next = addPushedTick(pushed.current, tick);
      if (next === pushed.current) return;
      pushed.current = next;
      if (frame.current !== null || !wantedNow.current.includes(tick.symbol)) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = null;
        setVersion((value) => value + 1);
      });
    },
    () => {
      // Ticks were missed: start every run again and take the server's marks meanwhile.
      pushed.current = forgetPushedTicks();
      setVersion((value) => value + 1);
      refreshServerMarks();
    },
  );
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const refresh = useRef(refreshServerMarks);
  refresh.current = refreshServerMarks;

  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the pushed ticks (a ref)
  useEffect(() => {
    if (wantedNow.current.some((symbol) => needsServerMark(symbol, pushed.current, server))) refresh.current();
  }, [version, server, wantedKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the pushed ticks (a ref)
  return useMemo(() => new Map(wantedNow.current.map((symbol) => [symbol, shownMark(symbol, pushed.current, server)] as const)), [version, server, wantedKey]);
}
