import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { buildSiweMessage, checkSiweFields, SIWE_STATEMENT, shortAddress, siweDomainOf, WALLET_NONCE_TTL_MS } from './siwe.ts';

const issuedAt = new Date('2026-11-29T09:00:00.000Z');
const fields = {
  domain: 'keel.example',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const,
  statement: SIWE_STATEMENT,
  uri: 'https://keel.example',
  chainId: 1,
  nonce: 'a1b2c3d4e5f6a7b8c9d0',
  issuedAt,
  expirationTime: new Date(issuedAt.getTime() + WALLET_NONCE_TTL_MS),
};
const expected = { domain: 'keel.example', origin: 'https://keel.example', chainId: 1, nowMs: issuedAt.getTime() + 1000 };

describe('SIWE message (EIP-4361)', () => {
  it('is the text viem writes, and viem reads our fields back', () => {
    const text = buildSiweMessage(fields);
    expect(text).toBe(createSiweMessage({ ...fields, version: '1' }));
    expect(parseSiweMessage(text)).toMatchObject({ domain: 'keel.example', address: fields.address, chainId: 1, nonce: fields.nonce, statement: SIWE_STATEMENT });
  });

  it('says that Keel never asks for a seed phrase, a private key or an approval', () => {
    expect(SIWE_STATEMENT).toMatch(/never asks for your seed phrase, your private key or a token approval/);
    expect(SIWE_STATEMENT).not.toMatch(/\n/);
  });

  it('accepts its own fields and names the first problem of others', () => {
    expect(checkSiweFields({ ...fields, version: '1' }, expected)).toBeNull();
    expect(checkSiweFields({ ...fields, domain: 'evil.example' }, expected)).toBe('wrong_domain');
    expect(checkSiweFields({ ...fields, uri: 'https://evil.example/login' }, expected)).toBe('wrong_domain');
    expect(checkSiweFields({ ...fields, chainId: 5 }, expected)).toBe('wrong_chain');
    expect(checkSiweFields(fields, { ...expected, nowMs: fields.expirationTime.getTime() })).toBe('nonce_expired');
    expect(checkSiweFields({ ...fields, nonce: undefined }, expected)).toBe('bad_message');
    expect(checkSiweFields({ ...fields, version: '2' }, expected)).toBe('bad_message');
    expect(checkSiweFields({ ...fields, notBefore: new Date(expected.nowMs + 60_000) }, expected)).toBe('bad_message');
    expect(checkSiweFields({ ...fields, uri: 'not a uri' }, expected)).toBe('wrong_domain');
  });

  it('takes the domain from the public origin, with a port only when it is not the default', () => {
    expect(siweDomainOf('https://keel.example')).toBe('keel.example');
    expect(siweDomainOf('http://127.0.0.1:8080')).toBe('127.0.0.1:8080');
    expect(shortAddress(fields.address)).toBe('0xf39F…2266');
  });
});
