import { describe, expect, it } from 'vitest';
import {
  bpsPercent,
  chooseLeverageSymbol,
  clampLeverage,
  leverageCap,
  leveragePath,
  orderPreview,
  ppmPercent,
  secondsText,
  tradeProductOf,
  triggerPricesProblem,
  usdtMinorOf,
} from './leverage-logic.ts';

const symbols = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'];

describe('the product and market of a leverage address', () => {
  it('names the product by path and the market by ?symbol=, with or without its slash, any case', () => {
    expect(tradeProductOf('/trade/futures')).toBe('futures');
    expect(tradeProductOf('/trade/leveraged')).toBe('leveraged');
    expect(tradeProductOf('/trade')).toBe('contracts');
    expect(tradeProductOf('/trade_BTCUSDT')).toBe('contracts');
    expect(leveragePath('futures', 'ETH/USDT')).toBe('/trade/futures?symbol=ETH%2FUSDT');
    expect(leveragePath('leveraged')).toBe('/trade/leveraged');
    expect(chooseLeverageSymbol('ETH/USDT', symbols, null)).toBe('ETH/USDT');
    expect(chooseLeverageSymbol('ethusdt', symbols, 'BTC/USDT')).toBe('ETH/USDT');
    expect(chooseLeverageSymbol('sol/usdt', symbols, null)).toBe('SOL/USDT');
  });

  it('is not found for a market nobody lists; without one, the remembered market, else the first', () => {
    expect(chooseLeverageSymbol('DOGE/USDT', symbols, 'ETH/USDT')).toBe('notFound');
    expect(chooseLeverageSymbol(null, symbols, 'SOL/USDT')).toBe('SOL/USDT');
    expect(chooseLeverageSymbol('', symbols, 'XRP/USDT')).toBe('BTC/USDT');
    expect(chooseLeverageSymbol(null, [], null)).toBeNull();
  });
});

describe('the leverage slider’s limit', () => {
  it('is the product’s maximum until the notional’s bracket allows less', () => {
    expect(leverageCap('futures', null)).toEqual({ max: 100, productMax: 100, byBracket: false });
    expect(leverageCap('leveraged', null).max).toBe(10);
    // 500 × 100 = 50,000 USDT: still the first bracket (up to 50,000, 100x).
    expect(leverageCap('futures', usdtMinorOf('500'))).toEqual({ max: 100, productMax: 100, byBracket: false });
    // 500.000001 × 100 is in the second bracket (50x); × 99 = 49,500.0001 is still in the first.
    expect(leverageCap('futures', usdtMinorOf('500.000001'))).toEqual({ max: 99, productMax: 100, byBracket: true });
    // 600 × 84 = 50,400 (second bracket, 50x); × 83 = 49,800 (first): 83x.
    expect(leverageCap('futures', usdtMinorOf('600')).max).toBe(83);
    // 2,000 × 26 = 52,000 (second bracket) allows up to 50x, but × 50 = 100,000 is fine there too: 50x.
    expect(leverageCap('futures', usdtMinorOf('2000')).max).toBe(50);
    // 10,000 × 25 = 250,000 (second bracket, 50x allows 25x); 26x would be 260,000 (third bracket, 20x).
    expect(leverageCap('futures', usdtMinorOf('10000')).max).toBe(25);
    expect(leverageCap('leveraged', usdtMinorOf('20000')).max).toBe(5);
  });

  it('is 0 when even 1x is beyond the last bracket, and keeps a leverage within 1…limit', () => {
    expect(leverageCap('leveraged', usdtMinorOf('2000000.000001')).max).toBe(0);
    const cap = leverageCap('futures', usdtMinorOf('10000'));
    expect(clampLeverage(100, cap)).toBe(25);
    expect(clampLeverage(0, cap)).toBe(1);
    expect(clampLeverage(20, cap)).toBe(20);
  });
});

describe('the order preview (what the server opens at the same recorded price)', () => {
  it('a 20x futures long of 100 USDT at 60,000: fill with the spread, quantity, fee, cost, liquidation price', () => {
    const preview = orderPreview({ product: 'futures', side: 'long', margin: '100', leverage: 20, lastPrice: '60000.00000000' });
    expect(preview).toEqual({
      kind: 'quote',
      quote: {
        type: 'market',
        referencePrice: '60000.00000000',
        // 60,000 × 1.0005
        fillPrice: '60030.00000000',
        notional: '2000.000000',
        // 2,000 ÷ 60,030, rounded down to 8 decimals
        quantity: '0.03331667',
        // 0.1 % of 2,000
        fee: '2.000000',
        margin: '100.000000',
        cost: '102.000000',
        // (Q·E − M) ÷ (Q·(1 − 0.5 %)), rounded down for a long
        liquidationPrice: '57315.07492454',
        liquidationPriceMinor: 5731507492454n,
        bracketMaxLeverage: 100,
      },
    });
  });

  it('a short fills below the price and is liquidated above it; 1x long has no liquidation price', () => {
    const short = orderPreview({ product: 'leveraged', side: 'short', margin: '50', leverage: 5, lastPrice: '2000' });
    expect(short.kind === 'quote' && short.quote.fillPrice).toBe('1999.00000000');
    expect(short.kind === 'quote' && short.quote.liquidationPriceMinor! > 199900000000n).toBe(true);
    const unlevered = orderPreview({ product: 'leveraged', side: 'long', margin: '50', leverage: 1, lastPrice: '2000' });
    expect(unlevered.kind === 'quote' && unlevered.quote.liquidationPrice).toBeNull();
  });

  it('says what is missing or what the server would refuse', () => {
    expect(orderPreview({ product: 'futures', side: 'long', margin: '', leverage: 10, lastPrice: '60000' })).toEqual({ kind: 'incomplete' });
    expect(orderPreview({ product: 'futures', side: 'long', margin: '1.0000001', leverage: 10, lastPrice: '60000' })).toEqual({ kind: 'incomplete' });
    expect(orderPreview({ product: 'futures', side: 'long', margin: '10', leverage: 10, lastPrice: null })).toEqual({ kind: 'noPrice' });
    expect(orderPreview({ product: 'futures', side: 'long', margin: '1000', leverage: 100, lastPrice: '60000' })).toEqual({
      kind: 'problem',
      problem: 'leverage_above_bracket',
      maxLeverage: 50,
    });
    expect(orderPreview({ product: 'leveraged', side: 'long', margin: '10', leverage: 11, lastPrice: '60000' })).toMatchObject({ problem: 'leverage_out_of_range' });
    expect(orderPreview({ product: 'futures', side: 'long', margin: '0.000001', leverage: 1, lastPrice: '60000' })).toEqual({ kind: 'problem', problem: 'quantity_zero' });
  });
});

describe('a limit order’s preview', () => {
  it('is quoted at its limit, without the spread: the worst it can fill at', () => {
    const preview = orderPreview({ product: 'futures', side: 'long', margin: '100', leverage: 20, lastPrice: '61000', type: 'limit', limitPrice: '60030' });
    expect(preview.kind === 'quote' && preview.quote).toMatchObject({
      type: 'limit',
      referencePrice: '60030.00000000',
      fillPrice: '60030.00000000',
      quantity: '0.03331667',
      liquidationPrice: '57315.07492454',
    });
    // No recorded price is needed to quote a limit order; no limit price, nothing to quote yet.
    expect(orderPreview({ product: 'futures', side: 'long', margin: '100', leverage: 20, lastPrice: null, type: 'limit', limitPrice: '59000' }).kind).toBe('quote');
    expect(orderPreview({ product: 'futures', side: 'long', margin: '100', leverage: 20, lastPrice: '60000', type: 'limit', limitPrice: '' })).toEqual({ kind: 'incomplete' });
  });
});

describe('take-profit and stop-loss against the last price and the liquidation price', () => {
  const liquidation = 5731507492454n;
  const check = (side: 'long' | 'short', takeProfitPrice: string, stopLossPrice: string) =>
    triggerPricesProblem(side, { takeProfitPrice, stopLossPrice }, '60000', liquidation);

  it('a long takes profit above the price and stops a loss between it and the liquidation price', () => {
    expect(check('long', '61000', '59500')).toBeNull();
    expect(check('long', '', '')).toBeNull();
    expect(check('long', '60000', '')).toBe('take_profit_wrong_side');
    expect(check('long', '', '60000')).toBe('stop_loss_wrong_side');
    expect(check('long', '', '57315.07492454')).toBe('stop_loss_beyond_liquidation');
  });

  it('a short the other way round', () => {
    expect(triggerPricesProblem('short', { takeProfitPrice: '59000', stopLossPrice: '60500' }, '60000', 6300000000000n)).toBeNull();
    expect(triggerPricesProblem('short', { takeProfitPrice: '61000', stopLossPrice: '' }, '60000', null)).toBe('take_profit_wrong_side');
    expect(triggerPricesProblem('short', { takeProfitPrice: '', stopLossPrice: '64000' }, '60000', 6300000000000n)).toBe('stop_loss_beyond_liquidation');
  });
});

describe('rates as the screen writes them', () => {
  it('basis points, parts per million and milliseconds', () => {
    expect(bpsPercent(1010n)).toBe('10.10');
    expect(ppmPercent(100)).toBe('0.01');
    expect(ppmPercent(-25)).toBe('-0.0025');
    expect(ppmPercent(10_000)).toBe('1');
    expect(ppmPercent(0)).toBe('0');
    expect(secondsText(30_000)).toBe('30');
    expect(secondsText(1_500)).toBe('1.5');
  });
});
