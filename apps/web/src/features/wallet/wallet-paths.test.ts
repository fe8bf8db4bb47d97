import { describe, expect, it } from 'vitest';
import {
  addressPickerPath,
  cardPickedPath,
  depositCreatedPath,
  isChannelId,
  isPickerMode,
  isRecordId,
  safeReturnPath,
  shortenMiddle,
  withdrawPath,
} from './wallet-paths.ts';

describe('wallet paths', () => {
  it('tells the picker from the manage view', () => {
    expect(isPickerMode('select')).toBe(true);
    expect(isPickerMode('1')).toBe(true);
    expect(isPickerMode('manage')).toBe(false);
    expect(isPickerMode('0')).toBe(false);
    expect(isPickerMode(undefined)).toBe(false);
  });

  it('carries the channel to the picker and the choice back to the form', () => {
    expect(addressPickerPath('USDT-TRC20')).toBe('/assets/WalletAddress/select?channel=USDT-TRC20');
    expect(addressPickerPath('DOGE')).toBe('/assets/WalletAddress/select');
    expect(addressPickerPath(null)).toBe('/assets/WalletAddress/select');
    expect(withdrawPath({ addressId: '12', channel: 'BTC' })).toBe('/assets/withdraw?addressId=12&channel=BTC');
    expect(withdrawPath({ addressId: '12' })).toBe('/assets/withdraw?addressId=12');
    expect(withdrawPath({ addressId: '0', channel: 'x' })).toBe('/assets/withdraw');
  });

  it('checks channel and record ids', () => {
    expect(isChannelId('USDT-ERC20')).toBe(true);
    expect(isChannelId('usdt-erc20')).toBe(false);
    expect(isRecordId('1')).toBe(true);
    expect(isRecordId('01')).toBe(false);
    expect(isRecordId('12345678901234567890')).toBe(false);
  });

  it('returns a picked card only inside the app', () => {
    expect(cardPickedPath('/trade/shopping/sell?x=1', '5')).toBe('/trade/shopping/sell?x=1&cardId=5');
    expect(cardPickedPath('/assets/C2CWithdrawal/3', '5')).toBe('/assets/C2CWithdrawal/3?cardId=5');
    expect(cardPickedPath('//evil.example', '5')).toBe('/assets?cardId=5');
    expect(cardPickedPath('https://evil.example', '5')).toBe('/assets?cardId=5');
    expect(cardPickedPath(null, '5')).toBe('/assets?cardId=5');
    expect(safeReturnPath('/\\evil', '/x')).toBe('/x');
  });

  it('marks a new deposit', () => {
    expect(depositCreatedPath('9')).toBe('/assets/rechargeLog?created=9');
  });

  it('shortens long values in the middle', () => {
    expect(shortenMiddle('0x1234567890abcdef1234567890abcdef')).toBe('0x123456…abcdef');
    expect(shortenMiddle('short')).toBe('short');
  });
});
