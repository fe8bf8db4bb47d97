import { describe, expect, it } from 'vitest';
import { closeFormSchema, leverageProblems, limitBody, marginFormSchema, type OrderLimits, openBody, orderFormSchema, triggersFormSchema } from './order-form.ts';

const values = { side: 'long', margin: '100', leverage: 20, limitPrice: '', takeProfitPrice: '', stopLossPrice: '' } as const;

describe('the order form', () => {
  const limits: OrderLimits = { product: 'futures', available: '1000', lastPrice: '60000', type: 'market' };
  const schema = orderFormSchema(() => limits);
  const problems = (input: Partial<typeof values> | Record<string, unknown>) => {
    const result = schema.safeParse({ ...values, ...input });
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('sends what was typed, canonical, with empty triggers as none', () => {
    const parsed = schema.parse({ ...values, margin: ' 100,5 ', takeProfitPrice: '61000', stopLossPrice: ' 59500 ' });
    expect(parsed).toEqual({ side: 'long', margin: '100.5', leverage: 20, limitPrice: '', takeProfitPrice: '61000', stopLossPrice: '59500' });
    expect(openBody('futures', 'BTC/USDT', { ...parsed, takeProfitPrice: '' })).toEqual({
      product: 'futures',
      symbol: 'BTC/USDT',
      side: 'long',
      margin: '100.5',
      leverage: 20,
      takeProfitPrice: null,
      stopLossPrice: '59500',
    });
  });

  it('checks the margin as every money form does, then margin plus fee against the balance', () => {
    expect(problems({ margin: '' })).toEqual([['margin', 'amount:required']]);
    expect(problems({ margin: '1.0000001' })).toEqual([['margin', 'amount:tooManyDecimals']]);
    expect(problems({ margin: '1000.5' })).toEqual([['margin', 'amount:aboveAvailable']]);
    // 990 at 1x: fee 0.99, cost 990.99 ≤ 1,000; at 10x the fee is 9.90 and 999.90 is within too; 995 × 10 is not.
    expect(problems({ margin: '990', leverage: 10 })).toEqual([]);
    expect(problems({ margin: '995', leverage: 10 })).toEqual([['margin', leverageProblems.costAboveAvailable]]);
  });

  it('refuses the leverage the notional’s bracket does not allow, and a margin too small for any quantity', () => {
    expect(problems({ margin: '600', leverage: 84 })).toEqual([['leverage', leverageProblems.leverageAboveBracket]]);
    expect(problems({ margin: '600', leverage: 83 })).toEqual([]);
    expect(problems({ leverage: 0 })).not.toEqual([]);
    expect(problems({ margin: '0.000001', leverage: 1 })).toEqual([['margin', leverageProblems.quantityZero]]);
    limits.product = 'leveraged';
    expect(problems({ leverage: 20 })).toEqual([['leverage', leverageProblems.leverageOutOfRange]]);
    limits.product = 'futures';
  });

  it('puts take-profit and stop-loss on the right side of the price and of the liquidation price', () => {
    expect(problems({ takeProfitPrice: '61000', stopLossPrice: '59500' })).toEqual([]);
    expect(problems({ takeProfitPrice: '59000' })).toEqual([['takeProfitPrice', leverageProblems.takeProfitWrongSide]]);
    expect(problems({ stopLossPrice: '60001' })).toEqual([['stopLossPrice', leverageProblems.stopLossWrongSide]]);
    // Below the liquidation price (57,315.07…) a stop-loss could never fire.
    expect(problems({ stopLossPrice: '57000' })).toEqual([['stopLossPrice', leverageProblems.stopLossBeyondLiquidation]]);
    expect(problems({ side: 'short', takeProfitPrice: '59000', stopLossPrice: '60500' })).toEqual([]);
    expect(problems({ takeProfitPrice: '0' })).toEqual([['takeProfitPrice', leverageProblems.priceFormat]]);
    expect(problems({ takeProfitPrice: '1.123456789' })).toEqual([['takeProfitPrice', leverageProblems.priceFormat]]);
  });

  it('a limit order needs its limit, is quoted there and its triggers are checked against it', () => {
    limits.type = 'limit';
    expect(problems({})).toEqual([['limitPrice', leverageProblems.limitRequired]]);
    expect(problems({ limitPrice: '59000', takeProfitPrice: '59500', stopLossPrice: '58000' })).toEqual([]);
    // Above the last price (60,000) but below the limit: a take-profit a long limit order cannot have.
    expect(problems({ limitPrice: '59000', takeProfitPrice: '58900' })).toEqual([['takeProfitPrice', leverageProblems.takeProfitWrongSide]]);
    // No recorded price is needed to place one.
    limits.lastPrice = null;
    expect(problems({ limitPrice: '59000' })).toEqual([]);
    expect(limitBody('futures', 'BTC/USDT', { ...values, limitPrice: '59000' })).toMatchObject({ limitPrice: '59000', takeProfitPrice: null });
    limits.lastPrice = '60000';
    limits.type = 'market';
  });

  it('says so when the market has no recorded price', () => {
    limits.lastPrice = null;
    expect(problems({})).toEqual([['margin', leverageProblems.noPrice]]);
    limits.lastPrice = '60000';
  });
});

describe('the position sheets', () => {
  it('triggers: empty clears, checked against the price now and the liquidation price', () => {
    const schema = triggersFormSchema(() => ({ side: 'long', lastPrice: '60000', liquidationPrice: '57315.07492454' }));
    expect(schema.parse({ takeProfitPrice: '', stopLossPrice: '59000' })).toEqual({ takeProfitPrice: '', stopLossPrice: '59000' });
    expect(schema.safeParse({ takeProfitPrice: '', stopLossPrice: '57000' }).error?.issues[0]?.message).toBe(leverageProblems.stopLossBeyondLiquidation);
  });

  it('margin: adding within the balance, removing within what may be removed', () => {
    const limits = { direction: 'add' as 'add' | 'remove', available: '20', removable: '5.000000' };
    const schema = marginFormSchema(() => limits);
    expect(schema.parse({ direction: 'add', amount: '20' })).toEqual({ direction: 'add', amount: '20' });
    expect(schema.safeParse({ direction: 'add', amount: '20.5' }).error?.issues[0]?.message).toBe('amount:aboveAvailable');
    limits.direction = 'remove';
    expect(schema.safeParse({ direction: 'remove', amount: '20' }).error?.issues[0]?.message).toBe(leverageProblems.aboveRemovable);
    expect(schema.safeParse({ direction: 'remove', amount: '5' }).success).toBe(true);
    expect(schema.safeParse({ direction: 'remove', amount: 'x' }).error?.issues.map((issue) => issue.message)).toEqual(['amount:format']);
  });

  it('close: all when empty, else a quantity of at most 8 decimals within what is open', () => {
    const schema = closeFormSchema(() => ({ openQuantity: '0.03331667' }));
    expect(schema.parse({ quantity: '' })).toEqual({ quantity: '' });
    expect(schema.parse({ quantity: '0,01' })).toEqual({ quantity: '0.01' });
    expect(schema.safeParse({ quantity: '0.04' }).error?.issues[0]?.message).toBe(leverageProblems.quantityAboveOpen);
    expect(schema.safeParse({ quantity: '0.000000001' }).error?.issues[0]?.message).toBe(leverageProblems.quantityFormat);
    expect(schema.safeParse({ quantity: '0' }).error?.issues[0]?.message).toBe(leverageProblems.quantityFormat);
  });
});
