import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { type AddressProblem, checkAddress, ethereumChecksumAddress } from './addresses.ts';

const base58check = createBase58check(sha256);

/** Changes the case of the character at `position` (which must be a letter). */
function flipCase(text: string, position: number): string {
  const char = text[position]!;
  const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
  if (flipped === char) throw new Error(`no letter at ${position} of ${text}`);
  return text.slice(0, position) + flipped + text.slice(position + 1);
}

function refusal(problem: AddressProblem) {
  return { ok: false, problem };
}

describe('checkAddress: common rules', () => {
  it('refuses empty and blank text as empty, on every network', () => {
    for (const network of ['bitcoin', 'ethereum', 'tron'] as const) {
      expect(checkAddress(network, '')).toEqual(refusal('empty'));
      expect(checkAddress(network, ' \t\n ')).toEqual(refusal('empty'));
    }
  });

  it('ignores whitespace around a pasted address but not inside it', () => {
    expect(checkAddress('bitcoin', '  1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa\n')).toEqual({
      ok: true,
      address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    });
    expect(checkAddress('tron', '\tTR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ')).toEqual({
      ok: true,
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(checkAddress('bitcoin', '1A1zP1eP5QGefi2DMPT fTL5SLmv7DivfNa')).toEqual(refusal('format'));
  });
});

describe('checkAddress: bitcoin legacy (base58check)', () => {
  it('accepts mainnet P2PKH and P2SH addresses as written', () => {
    // The genesis block's coinbase address, and the P2SH example of the Bitcoin wiki.
    expect(checkAddress('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual({
      ok: true,
      address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    });
    expect(checkAddress('bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toEqual({
      ok: true,
      address: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    });
  });

  it('catches a changed character with the checksum', () => {
    expect(checkAddress('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toEqual(refusal('checksum'));
    expect(checkAddress('bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz')).toEqual(refusal('checksum'));
  });

  it('refuses characters outside base58 and wrong lengths as format', () => {
    // 0, O, I and l are not in the base58 alphabet.
    expect(checkAddress('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0')).toEqual(refusal('format'));
    expect(checkAddress('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf')).toEqual(refusal('format'));
    expect(checkAddress('bitcoin', `1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa${'1'.repeat(200)}`)).toEqual(refusal('format'));
  });

  it('refuses testnet addresses (m…, n…, 2…) as the wrong network', () => {
    // The same hash160 as the genesis address, under the testnet version bytes.
    const genesisHash = base58check.decode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa').subarray(1);
    const testnetP2pkh = base58check.encode(Uint8Array.of(0x6f, ...genesisHash));
    const testnetP2sh = base58check.encode(Uint8Array.of(0xc4, ...genesisHash));
    expect(testnetP2pkh).toMatch(/^[mn]/);
    expect(testnetP2sh).toMatch(/^2/);
    expect(checkAddress('bitcoin', testnetP2pkh)).toEqual(refusal('wrong_network'));
    expect(checkAddress('bitcoin', testnetP2sh)).toEqual(refusal('wrong_network'));
  });

  it('refuses a base58check value with an unknown version byte as format', () => {
    const genesisHash = base58check.decode('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa').subarray(1);
    expect(checkAddress('bitcoin', base58check.encode(Uint8Array.of(0x30, ...genesisHash)))).toEqual(refusal('format'));
  });

  it('names Ethereum and TRON addresses as the wrong network', () => {
    expect(checkAddress('bitcoin', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual(refusal('wrong_network'));
    expect(checkAddress('bitcoin', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toEqual(refusal('wrong_network'));
  });
});

describe('checkAddress: bitcoin segwit (BIP173 and BIP350 test vectors)', () => {
  it('accepts the mainnet valid vectors and normalises them to lower case', () => {
    const valid = [
      // BIP173 (and BIP350): witness v0, 20-byte program, in upper case.
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      // BIP350: witness v16 with a 2-byte program, and v2 with 16 bytes (future versions).
      'BC1SW50QGDZ25J',
      'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
      // BIP350: a taproot (v1, 32-byte) output.
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    ];
    for (const address of valid) {
      expect(checkAddress('bitcoin', address), address).toEqual({ ok: true, address: address.toLowerCase() });
    }
  });

  it('accepts the BIP173 mainnet P2WSH example (v0, 32-byte program)', () => {
    const address = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
    expect(checkAddress('bitcoin', address)).toEqual({ ok: true, address });
  });

  it('refuses a v1 program that is not 32 bytes, although BIP350 lists it as valid', () => {
    // Version 1 with 40 bytes has no spending rule today (anyone could take the coins), and no
    // wallet produces it; the platform refuses to send there.
    const v1With40Bytes = 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y';
    expect(checkAddress('bitcoin', v1With40Bytes)).toEqual(refusal('format'));
  });

  it('refuses the valid testnet vectors as the wrong network', () => {
    const testnet = [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
      'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
    ];
    for (const address of testnet) {
      expect(checkAddress('bitcoin', address), address).toEqual(refusal('wrong_network'));
    }
  });

  it('refuses the BIP173 invalid vectors for the reason the BIP gives', () => {
    const invalid: [string, AddressProblem][] = [
      ['tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty', 'format'], // invalid human-readable part
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'], // invalid checksum
      ['BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2', 'format'], // invalid witness version
      ['bc1rw5uspcuh', 'format'], // invalid program length
      ['bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90', 'format'], // invalid program length
      ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'format'], // invalid program length for witness version 0
      ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7', 'format'], // mixed case
      ['bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'format'], // zero padding of more than 4 bits
      ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv', 'format'], // non-zero padding in 8-to-5 conversion
      ['bc1gmk9yu', 'format'], // empty data section
    ];
    for (const [address, problem] of invalid) {
      expect(checkAddress('bitcoin', address), address).toEqual(refusal(problem));
    }
  });

  it('refuses the addresses BIP173 called valid but BIP350 does not (v1+ with a bech32 checksum)', () => {
    const bech32ForV1Plus = [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
      'BC1SW50QA3JX3S',
      'bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj',
    ];
    for (const address of bech32ForV1Plus) {
      expect(checkAddress('bitcoin', address), address).toEqual(refusal('checksum'));
    }
  });

  it('refuses the BIP350 invalid vectors for the reason the BIP gives', () => {
    const invalid: [string, AddressProblem][] = [
      ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', 'format'], // invalid human-readable part
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'checksum'], // bech32 instead of bech32m
      ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'checksum'], // bech32 instead of bech32m
      ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'checksum'], // bech32 instead of bech32m
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'checksum'], // bech32m instead of bech32
      ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', 'checksum'], // bech32m instead of bech32
      ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'format'], // invalid character in checksum
      ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'format'], // invalid witness version
      ['bc1pw5dgrnzv', 'format'], // invalid program length (1 byte)
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'format'], // 41 bytes
      ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'format'], // invalid program length for witness version 0
      ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'format'], // mixed case
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'format'], // zero padding of more than 4 bits
      ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'format'], // non-zero padding in 8-to-5 conversion
      ['bc1gmk9yu', 'format'], // empty data section
    ];
    for (const [address, problem] of invalid) {
      expect(checkAddress('bitcoin', address), address).toEqual(refusal(problem));
    }
  });

  it('refuses mixed case on a mainnet address, and a changed character with the checksum', () => {
    expect(checkAddress('bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4')).toEqual(refusal('format'));
    expect(checkAddress('bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toEqual({
      ok: true,
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    });
    expect(checkAddress('bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3q4')).toEqual(refusal('checksum'));
    expect(checkAddress('bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj9')).toEqual(refusal('checksum'));
  });

  it('refuses segwit text longer than 90 characters', () => {
    expect(checkAddress('bitcoin', `bc1q${'q'.repeat(87)}`)).toEqual(refusal('format'));
  });
});

describe('checkAddress: ethereum', () => {
  // The four examples of EIP-55 (all-caps, all-lower, and two mixed).
  const eip55Examples = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('computes the EIP-55 checksum of the EIP examples, with or without 0x and in any case', () => {
    for (const address of eip55Examples) {
      expect(ethereumChecksumAddress(address)).toBe(address);
      expect(ethereumChecksumAddress(address.slice(2).toLowerCase())).toBe(address);
      expect(ethereumChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    }
    // The EIP's all-upper and all-lower examples: letters only, and digits only after 0x.
    expect(ethereumChecksumAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x52908400098527886E0F7030069857D2E4169EE7');
    expect(ethereumChecksumAddress('0xde709f2102306220921060314715629080e2fb77')).toBe('0xde709f2102306220921060314715629080e2fb77');
  });

  it('refuses to checksum something that is not 40 hex digits', () => {
    expect(() => ethereumChecksumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toThrow(TypeError);
    expect(() => ethereumChecksumAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg')).toThrow(TypeError);
  });

  it('accepts correctly checksummed addresses as written', () => {
    for (const address of eip55Examples) {
      expect(checkAddress('ethereum', address), address).toEqual({ ok: true, address });
    }
  });

  it('accepts single-case addresses (no checksum) and returns them checksummed', () => {
    for (const address of eip55Examples) {
      const digits = address.slice(2);
      expect(checkAddress('ethereum', `0x${digits.toLowerCase()}`)).toEqual({ ok: true, address });
      expect(checkAddress('ethereum', `0x${digits.toUpperCase()}`)).toEqual({ ok: true, address });
    }
  });

  it('refuses a mixed-case address with one letter flipped as a checksum failure', () => {
    for (const address of eip55Examples) {
      const letter = address.slice(2).search(/[a-fA-F]/) + 2;
      expect(checkAddress('ethereum', flipCase(address, letter)), address).toEqual(refusal('checksum'));
    }
    expect(checkAddress('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toEqual(refusal('checksum'));
  });

  it('refuses other shapes as format', () => {
    expect(checkAddress('ethereum', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual(refusal('format'));
    expect(checkAddress('ethereum', '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual(refusal('format'));
    expect(checkAddress('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toEqual(refusal('format'));
    expect(checkAddress('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0')).toEqual(refusal('format'));
    expect(checkAddress('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg')).toEqual(refusal('format'));
    expect(checkAddress('ethereum', 'vitalik.eth')).toEqual(refusal('format'));
  });

  it('names TRON and bitcoin addresses as the wrong network', () => {
    expect(checkAddress('ethereum', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toEqual(refusal('wrong_network'));
    expect(checkAddress('ethereum', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual(refusal('wrong_network'));
    expect(checkAddress('ethereum', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toEqual(refusal('wrong_network'));
    expect(checkAddress('ethereum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toEqual(refusal('wrong_network'));
    expect(checkAddress('ethereum', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7')).toEqual(
      refusal('wrong_network'),
    );
  });
});

describe('checkAddress: tron', () => {
  const usdtContract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

  it('accepts the USDT contract address, which is 0x41 and a 20-byte hash', () => {
    expect(checkAddress('tron', usdtContract)).toEqual({ ok: true, address: usdtContract });
    expect(Array.from(base58check.decode(usdtContract).subarray(0, 1))).toEqual([0x41]);
  });

  it('catches a changed character with the checksum', () => {
    expect(checkAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toEqual(refusal('checksum'));
    expect(checkAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj7t')).toEqual(refusal('checksum'));
    // Base58 is case sensitive: a flipped case is a different value, caught the same way.
    expect(checkAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLJ6t')).toEqual(refusal('checksum'));
  });

  it('refuses a sound base58check value that is not a TRON address as format', () => {
    const accountHash = base58check.decode(usdtContract).subarray(1);
    expect(checkAddress('tron', base58check.encode(Uint8Array.of(0x42, ...accountHash)))).toEqual(refusal('format'));
    expect(checkAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjL')).toEqual(refusal('format'));
  });

  it('names Ethereum and bitcoin addresses as the wrong network', () => {
    expect(checkAddress('tron', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual(refusal('wrong_network'));
    // A mistyped Ethereum address is still recognisably Ethereum.
    expect(checkAddress('tron', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toEqual(refusal('wrong_network'));
    expect(checkAddress('tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual(refusal('wrong_network'));
    expect(checkAddress('tron', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toEqual(refusal('wrong_network'));
  });
});
