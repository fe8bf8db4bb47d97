import { CandlestickSeries, createChart, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { type Candle, chartPrecision, toChartBars } from './candles.ts';

/**
 * The candlestick chart (TradingView lightweight-charts). This module is only ever imported
 * dynamically (React.lazy in OptionsTrade), so the library is a chunk of its own that loads with
 * the trade screen and never with the rest of the app.
 *
 * Prices reach the library as JS numbers (toChartBars): for drawing only, never for money.
 */

const UP = '#19c6b4';
const DOWN = '#ff5b6e';

export default function CandleChart({ candles, label }: { candles: readonly Candle[]; label: string }) {
  const container = useRef<HTMLElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  /** The candles drawn last, to move only the newest bar when nothing else changed. */
  const drawn = useRef<readonly Candle[] | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const created = createChart(element, {
      autoSize: true,
      layout: {
        background: { color: 'transparent' },
        textColor: '#90a3bf',
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
        attributionLogo: true,
      },
      grid: {
        vertLines: { color: 'rgba(125, 160, 210, 0.08)' },
        horzLines: { color: 'rgba(125, 160, 210, 0.08)' },
      },
      rightPriceScale: { borderColor: 'rgba(125, 160, 210, 0.16)' },
      timeScale: { borderColor: 'rgba(125, 160, 210, 0.16)', timeVisible: true, secondsVisible: false },
      crosshair: { mode: 0 },
    });
    chart.current = created;
    series.current = created.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderUpColor: UP,
      borderDownColor: DOWN,
      wickUpColor: UP,
      wickDownColor: DOWN,
    });
    return () => {
      created.remove();
      chart.current = null;
      series.current = null;
      drawn.current = null;
    };
  }, []);

  useEffect(() => {
    const target = series.current;
    if (!target) return;
    const before = drawn.current;
    drawn.current = candles;
    // A pushed candle (useCandles' mergeCandle) replaces or appends the newest candle and keeps
    // every other one as it was: move that bar in place. Anything else (a new market, interval or
    // snapshot) is drawn afresh.
    const replacedNewest =
      before !== null &&
      before.length > 0 &&
      candles.length === before.length &&
      candles.at(-1)!.openTimeMs === before.at(-1)!.openTimeMs &&
      before.slice(0, -1).every((candle, index) => candle === candles[index]);
    const appended = before !== null && before.length > 0 && candles.length === before.length + 1 && before.every((candle, index) => candle === candles[index]);
    const onlyNewest = replacedNewest || appended;
    const bars = toChartBars(onlyNewest ? candles.slice(-1) : candles).map((bar) => ({ ...bar, time: bar.time as UTCTimestamp }));
    if (onlyNewest) {
      const last = bars.at(-1);
      if (last) target.update(last);
      return;
    }
    const precision = chartPrecision(candles);
    target.applyOptions({ priceFormat: { type: 'price', precision, minMove: 10 ** -precision } });
    target.setData(bars);
    chart.current?.timeScale().scrollToRealTime();
  }, [candles]);

  // The canvas is a picture for sighted users; the label names it and the price is read out beside it.
  // A figure, not an image: the library puts its attribution link inside, which must stay reachable.
  return <figure ref={container} className="options-chart-canvas" aria-label={label} dir="ltr" />;
}
