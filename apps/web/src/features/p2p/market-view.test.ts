import { describe, expect, it } from 'vitest';
import { adSideOfView, postAdPath, postSideOf, shopSearchFor, shopViewOf } from './market-view.ts';

const params = (search: string) => new URLSearchParams(search);

describe('the shop’s views in the address', () => {
  it('reads "Buy USDT" by default, "Sell USDT" from ?side=buy, "My ads" from ?tab=mine', () => {
    expect(shopViewOf(params(''))).toBe('buy');
    expect(shopViewOf(params('side=sell'))).toBe('buy');
    expect(shopViewOf(params('side=nonsense&fiat=INR'))).toBe('buy');
    expect(shopViewOf(params('side=buy'))).toBe('sell');
    expect(shopViewOf(params('side=buy&fiat=EUR&page=2'))).toBe('sell');
    expect(shopViewOf(params('tab=mine'))).toBe('mine');
    expect(shopViewOf(params('tab=mine&side=buy'))).toBe('mine');
  });

  it('lists the other side’s ads: buying takes sell ads, selling takes buy ads', () => {
    expect(adSideOfView('buy')).toBe('sell');
    expect(adSideOfView('sell')).toBe('buy');
  });

  it('writes each view back, keeping the currency and dropping the page', () => {
    expect(shopSearchFor('sell', params('fiat=INR&page=3')).toString()).toBe('side=buy&fiat=INR');
    expect(shopSearchFor('buy', params('side=buy&fiat=INR&page=3')).toString()).toBe('fiat=INR');
    expect(shopSearchFor('buy', params('side=buy')).toString()).toBe('');
    expect(shopSearchFor('mine', params('side=buy&fiat=INR')).toString()).toBe('tab=mine');
    for (const view of ['buy', 'sell', 'mine'] as const) expect(shopViewOf(shopSearchFor(view, params('fiat=EUR')))).toBe(view);
  });

  it('reads and writes the side of a new ad on the post page', () => {
    expect(postSideOf(params(''))).toBe('sell');
    expect(postSideOf(params('side=buy'))).toBe('buy');
    expect(postSideOf(params('side=BUY'))).toBe('sell');
    expect(postSideOf(new URL(`https://keel.test${postAdPath('buy')}`).searchParams)).toBe('buy');
    expect(postSideOf(new URL(`https://keel.test${postAdPath('sell')}`).searchParams)).toBe('sell');
  });
});
