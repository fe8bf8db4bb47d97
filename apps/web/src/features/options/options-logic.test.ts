import { winPayoutMinor } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { decimalToString } from '../../shared/format/decimal.ts';
import {
  chooseSymbol,
  closeDelaySeconds,
  countdownText,
  estimateSkewMs,
  expectedProfit,
  firstOpenProduct,
  remainingMs,
  resultOf,
  secondsLeft,
  stakeRangeProblem,
  symbolFromId,
  symbolId,
  tradeIdOf,
  tradePath,
  winReturn,
} from './options-logic.ts';

const symbols = ['BTC/USDT', 'ETH/USDT', 'DOGE/USDT'];

describe('market ids in the address', () => {
  it('drops the slash: BTC/USDT is /trade_BTCUSDT', () => {
    expect(symbolId('BTC/USDT')).toBe('BTCUSDT');
    expect(tradePath('DOGE/USDT')).toBe('/trade_DOGEUSDT');
  });

  it('reads the id of /trade_{id} and nothing else', () => {
    expect(tradeIdOf('/trade_BTCUSDT')).toBe('BTCUSDT');
    expect(tradeIdOf('/trade_eth%2Fusdt')).toBe('eth/usdt');
    expect(tradeIdOf('/trade')).toBeNull();
    expect(tradeIdOf('/trade/shopping')).toBeNull();
    expect(tradeIdOf('/trade_BTC/x')).toBeNull();
    expect(tradeIdOf('/trade_%E0%A4')).toBe('%E0%A4');
  });

  it('matches a listed symbol whatever the case', () => {
    expect(symbolFromId('btcusdt', symbols)).toBe('BTC/USDT');
    expect(symbolFromId('EthUsdt', symbols)).toBe('ETH/USDT');
    expect(symbolFromId('BTCUSD', symbols)).toBeUndefined();
    expect(symbolFromId('123', symbols)).toBeUndefined();
  });

  it('shows the address’s market, else the remembered one if still listed, else the first', () => {
    expect(chooseSymbol('ethusdt', symbols, 'DOGE/USDT')).toBe('ETH/USDT');
    expect(chooseSymbol('XYZ', symbols, 'DOGE/USDT')).toBe('notFound');
    expect(chooseSymbol(null, symbols, 'DOGE/USDT')).toBe('DOGE/USDT');
    expect(chooseSymbol(null, symbols, 'SOL/USDT')).toBe('BTC/USDT');
    expect(chooseSymbol(null, symbols, null)).toBe('BTC/USDT');
    expect(chooseSymbol(null, [], null)).toBeNull();
  });
});

describe('expected profit', () => {
  it('is stake × yield, exact', () => {
    expect(expectedProfit('100', 8000)).toBe('80.000000');
    expect(expectedProfit('10', 8250)).toBe('8.250000');
    expect(winReturn('100', 8000)).toBe('180.000000');
  });

  it('rounds down to 6 decimals, never up', () => {
    expect(expectedProfit('0.000013', 8500)).toBe('0.000011');
    expect(expectedProfit('0.000001', 8000)).toBe('0.000000');
    expect(expectedProfit('12.345679', 8200)).toBe('10.123456');
    expect(expectedProfit('99999999.999999', 9999)).toBe('99989999.999999');
  });

  it('agrees with the server’s own payout for many stakes and yields', () => {
    for (const yieldBps of [1, 7999, 8000, 8200, 8250, 8500, 8800, 9999]) {
      for (let minor = 1n; minor < 5_000_000_000n; minor = minor * 7n + 3n) {
        const stake = decimalToString({ minor, scale: 6 });
        expect(expectedProfit(stake, yieldBps), `${stake} @ ${yieldBps}`).toBe(decimalToString({ minor: winPayoutMinor(minor, yieldBps), scale: 6 }));
      }
    }
  });
});

describe('stake range', () => {
  const product = { minStake: '10.00', maxStake: '5000.00' };
  it('is inclusive at both ends', () => {
    expect(stakeRangeProblem('10', product)).toBeNull();
    expect(stakeRangeProblem('5000.000000', product)).toBeNull();
    expect(stakeRangeProblem('9.999999', product)).toBe('belowMin');
    expect(stakeRangeProblem('5000.000001', product)).toBe('aboveMax');
  });

  it('chooses the first product that is switched on', () => {
    const products = [
      { cycleSeconds: 30, enabled: false, yieldPercent: '80.00', yieldBps: 8000, minStake: '10', maxStake: '20' },
      { cycleSeconds: 60, enabled: true, yieldPercent: '82.00', yieldBps: 8200, minStake: '10', maxStake: '20' },
    ];
    expect(firstOpenProduct(products)?.cycleSeconds).toBe(60);
    expect(firstOpenProduct([products[0]!])).toBeUndefined();
  });
});

describe('countdown', () => {
  const order = { expiresAtMs: 100_000, cycleSeconds: 30 };

  it('counts to the expiry by the server clock as estimated', () => {
    expect(remainingMs(order, 80_000, 0)).toBe(20_000);
    // The server is 5 s ahead of this device: 5 s less to go.
    expect(remainingMs(order, 80_000, 5_000)).toBe(15_000);
    expect(remainingMs(order, 120_000, 0)).toBe(0);
  });

  it('never shows more than the whole cycle, whatever the clocks say', () => {
    expect(remainingMs(order, 0, 0)).toBe(30_000);
    expect(remainingMs(order, 80_000, -60_000)).toBe(30_000);
  });

  it('rounds seconds up and writes m:ss or h:mm:ss', () => {
    expect(secondsLeft(29_001)).toBe(30);
    expect(secondsLeft(29_000)).toBe(29);
    expect(secondsLeft(0)).toBe(0);
    expect(countdownText(29_500)).toBe('0:30');
    expect(countdownText(9_000)).toBe('0:09');
    expect(countdownText(299_000)).toBe('4:59');
    expect(countdownText(3_600_000 + 61_000)).toBe('1:01:01');
    expect(countdownText(0)).toBe('0:00');
  });

  it('estimates the server clock from an answer made while the request travelled', () => {
    expect(estimateSkewMs(10_500, 1_000, 2_000)).toBe(9_000);
    expect(estimateSkewMs(1_500, 1_000, 2_000)).toBe(0);
  });
});

describe('results', () => {
  it('names each status as the user reads it', () => {
    expect(resultOf({ status: 'won' })).toBe('profit');
    expect(resultOf({ status: 'lost' })).toBe('loss');
    expect(resultOf({ status: 'flat' })).toBe('flat');
    expect(resultOf({ status: 'void' })).toBe('void');
    expect(resultOf({ status: 'open' })).toBe('open');
  });

  it('states the void delay in seconds', () => {
    expect(closeDelaySeconds({ closeTickMaxDelayMs: 10_000, openTickMaxAgeMs: 5_000 })).toBe('10');
    expect(closeDelaySeconds({ closeTickMaxDelayMs: 2_500, openTickMaxAgeMs: 5_000 })).toBe('2.5');
  });
});
