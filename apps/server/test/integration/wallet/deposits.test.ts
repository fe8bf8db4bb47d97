import { deriveDepositAddress } from '@keel/domain';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, coinBalance, TEST_XPUB, VALID_ADDRESSES, walletUser } from '../../helpers/wallet.ts';

// Issue 5 deposits with staff review: deposit addresses (xpub derivation and a configured list),
// the report with a screenshot, approve (credited through the ledger) and reject (reason shown),
// maker-checker above the threshold, one credit per transaction hash, and the audit trail.

const LIST = ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'];
const TRON_TX = (digit: string) => digit.repeat(64);

let t: TestApp;
let finance: string;
let checker: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp({
    DEPOSIT_XPUB_TRON: TEST_XPUB,
    DEPOSIT_XPUB_BITCOIN: TEST_XPUB,
    DEPOSIT_ADDRESSES_ETHEREUM: LIST.join(','),
    WALLET_TWO_PERSON_ABOVE_USDT: '1000',
  });
  finance = await createStaff(t.app, t.db, 'finance01', ['finance']);
  checker = await createStaff(t.app, t.db, 'finance02', ['finance']);
});
afterAll(() => t.close());

const newUser = () => {
  counter += 1;
  return walletUser(t.app, t.db, `dep${counter}x${Date.now().toString(36)}`);
};

async function screenshot(token: string, purpose = 'deposit_proof') {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();
  const response = await t.app.inject({
    method: 'POST',
    url: `/home/uploads/image?purpose=${purpose}`,
    headers: { authorization: token, 'content-type': 'image/png' },
    payload: png,
  });
  return (response.json() as { data: { uploadId: string } }).data.uploadId;
}

describe('deposit addresses', () => {
  it('are derived from the operator’s xpub per network, assigned once per user, in order', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const first = await call(t.app, 'GET', '/home/wallet/deposit-address?channel=USDT-TRC20', a.token);
    const again = await call(t.app, 'GET', '/home/wallet/deposit-address?channel=USDT-TRC20', a.token);
    const other = await call(t.app, 'GET', '/home/wallet/deposit-address?channel=USDT-TRC20', b.token);
    expect(first.data).toEqual({ channel: 'USDT-TRC20', network: 'tron', address: deriveDepositAddress('tron', TEST_XPUB, 0), demo: false });
    expect(again.data.address).toBe(first.data.address);
    expect(other.data.address).toBe(deriveDepositAddress('tron', TEST_XPUB, 1));
    const btc = await call(t.app, 'GET', '/home/wallet/deposit-address?channel=BTC', b.token);
    expect(btc.data.address).toBe(deriveDepositAddress('bitcoin', TEST_XPUB, 0));
    expect(btc.data.address.startsWith('bc1q')).toBe(true);
  });

  it('come from a configured list one per user, and the list running out is said plainly', async () => {
    const answers = [];
    for (let index = 0; index < 3; index += 1) {
      answers.push(await call(t.app, 'GET', '/home/wallet/deposit-address?channel=ETH', (await newUser()).token));
    }
    expect(answers.slice(0, 2).map((answer) => answer.data.address)).toEqual(LIST);
    expect(answers[2]).toMatchObject({ code: 400, msg: 'no deposit address available for this channel' });
  });

  it('asking without a channel: select a recharge channel', async () => {
    const user = await newUser();
    expect((await call(t.app, 'GET', '/home/wallet/deposit-address', user.token)).msg).toBe('select a recharge channel');
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { amount: '10', txHash: TRON_TX('1') })).msg).toBe('select a recharge channel');
  });

  it('a network with no source offers no deposits', async () => {
    const bare = await createTestApp();
    try {
      const user = await walletUser(bare.app, bare.db, 'bareuser01');
      const overview = await call(bare.app, 'GET', '/home/wallet/overview', user.token);
      expect(overview.data.channels.every((channel: { depositEnabled: boolean }) => !channel.depositEnabled)).toBe(true);
      expect((await call(bare.app, 'GET', '/home/wallet/deposit-address?channel=BTC', user.token)).msg).toBe('no deposit address available for this channel');
    } finally {
      await bare.close();
    }
  });
});

describe('deposit review by finance staff', () => {
  it('report with a screenshot → staff see it (audited) → approve credits exactly the reported amount', async () => {
    const user = await newUser();
    const proof = await screenshot(user.token);
    const reported = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '250.5', txHash: TRON_TX('b'), proofUploadId: proof });
    expect(reported.data).toMatchObject({ status: 'pending', review: 'staff', amount: '250.500000', proofUploadId: proof, confirmations: null, entryId: null });
    expect(reported.data.address).toBe((await call(t.app, 'GET', '/home/wallet/deposit-address?channel=USDT-TRC20', user.token)).data.address);

    const queue = await call(t.app, 'GET', `/home/admin/deposits?user=${user.username}`, finance);
    expect(queue.data.items).toHaveLength(1);
    expect(queue.data.items[0]).toMatchObject({ id: reported.data.id, userName: user.username, approvalsRequired: 1, usdtValue: '250.500000' });
    const image = await t.app.inject({ url: `/home/admin/deposits/${reported.data.id}/proof`, headers: { authorization: finance } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');

    const approved = await call(t.app, 'POST', `/home/admin/deposits/${reported.data.id}/decision`, finance, { decision: 'approve' });
    expect(approved.data).toMatchObject({ status: 'approved', decidedBy: 'finance01', entryId: expect.stringMatching(/^\d+$/) });
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 250_500_000n, frozenMinor: 0n });
    const records = await call(t.app, 'GET', '/home/assets/records?reason=deposit', user.token);
    expect(records.data.items[0]).toMatchObject({ entryId: approved.data.entryId, referenceType: 'deposit', referenceId: reported.data.id });
    expect(records.data.items[0].postings).toEqual([{ account: 'coin', asset: 'USDT', bucket: 'available', amount: '250.500000' }]);
    const [message] = await t.db.query<{ title: string }>('SELECT title FROM messages WHERE user_id = $1', [user.userId]);
    expect(message!.title).toBe('Deposit credited: 250.500000 USDT');
    const actions = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'deposit' AND target_id = $1 ORDER BY id`, [
      reported.data.id,
    ]);
    expect(actions.map((row) => row.action)).toEqual(['deposit.proof.view', 'deposit.approve']);
    // Decided once: a second approval is refused and credits nothing more.
    expect((await call(t.app, 'POST', `/home/admin/deposits/${reported.data.id}/decision`, checker, { decision: 'approve' })).msg).toBe('no longer pending review');
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 250_500_000n, frozenMinor: 0n });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('a rejection carries the reason to the user; the hash can then be reported again, but never credited twice', async () => {
    const user = await newUser();
    const hash = TRON_TX('c');
    const first = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '90', txHash: hash });
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '90', txHash: hash.toUpperCase() })).msg).toBe(
      'transaction hash already submitted',
    );
    await call(t.app, 'POST', `/home/admin/deposits/${first.data.id}/decision`, finance, { decision: 'reject', reason: 'Amount does not match the transaction' });
    const seen = await call(t.app, 'GET', `/home/wallet/deposits/${first.data.id}`, user.token);
    expect(seen.data).toMatchObject({ status: 'rejected', rejectReason: 'Amount does not match the transaction', entryId: null });
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 0n });

    const second = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '95', txHash: hash });
    expect(second.code).toBe(200);
    await call(t.app, 'POST', `/home/admin/deposits/${second.data.id}/decision`, finance, { decision: 'approve' });
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '95', txHash: hash })).msg).toBe(
      'transaction hash already submitted',
    );
    const list = await call(t.app, 'GET', '/home/wallet/deposits', user.token);
    expect(list.data.items.map((item: { status: string }) => item.status)).toEqual(['approved', 'rejected']);
  });

  it('above the threshold a second, different staff member must approve before anything is credited', async () => {
    const user = await newUser();
    const reported = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '5000', txHash: TRON_TX('d') });
    const first = await call(t.app, 'POST', `/home/admin/deposits/${reported.data.id}/decision`, finance, { decision: 'approve' });
    expect(first.data).toMatchObject({ status: 'pending', approvalsRequired: 2, firstApproval: { staff: 'finance01' } });
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    expect((await call(t.app, 'POST', `/home/admin/deposits/${reported.data.id}/decision`, finance, { decision: 'approve' })).msg).toBe(
      'a second staff member must approve',
    );
    const second = await call(t.app, 'POST', `/home/admin/deposits/${reported.data.id}/decision`, checker, { decision: 'approve' });
    expect(second.data).toMatchObject({ status: 'approved', decidedBy: 'finance02' });
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 5_000_000_000n, frozenMinor: 0n });
    const actions = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'deposit' AND target_id = $1 ORDER BY id`, [
      reported.data.id,
    ]);
    expect(actions.map((row) => row.action)).toEqual(['deposit.first_approval', 'deposit.approve']);
  });

  it('a BTC deposit with no recorded price is valued as unknown: two approvals, the safe side', async () => {
    const user = await newUser();
    const reported = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'BTC', amount: '0.01', txHash: TRON_TX('e') });
    const detail = await call(t.app, 'GET', `/home/admin/deposits/${reported.data.id}`, finance);
    expect(detail.data).toMatchObject({ approvalsRequired: 2, usdtValue: '0.000000' });
  });

  it('bad input: amount, hash shape per network, a proof that is not the user’s deposit screenshot', async () => {
    const user = await newUser();
    const other = await newUser();
    const body = { channel: 'USDT-TRC20', amount: '10', txHash: TRON_TX('f') };
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, amount: '0' })).msg).toBe('wrong amount');
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, amount: '1.0000001' })).msg).toBe('wrong amount');
    const badHash = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, txHash: '0x1234' });
    expect(badHash).toMatchObject({ msg: 'parameter error', data: { fields: [{ field: 'body.txHash' }] } });
    // A verification photo is not a deposit screenshot, and another user's screenshot is not found.
    const idPhoto = await screenshot(user.token, 'verification');
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, proofUploadId: idPhoto })).msg).toBe('record does not exist');
    const theirs = await screenshot(other.token);
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, proofUploadId: theirs })).msg).toBe('record does not exist');
    const [count] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM deposits WHERE user_id = $1', [user.userId]);
    expect(count!.count).toBe(0);
  });

  it('a report above the published cap never reaches the finance queue: a 30-digit USDT amount is "amount out of range" naming the cap (issue 13)', async () => {
    const user = await newUser();
    const overview = await call(t.app, 'GET', '/home/wallet/overview', user.token);
    const usdt = overview.data.channels.find((channel: { id: string }) => channel.id === 'USDT-TRC20');
    expect(usdt.depositMax).toBe('10000000.000000');
    const body = { channel: 'USDT-TRC20', txHash: TRON_TX('e') };
    // The largest figure the amount format takes (30 whole digits): it used to enter the queue.
    const huge = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, amount: '9'.repeat(30) });
    expect(huge).toMatchObject({ code: 400, msg: 'amount out of range', data: { max: '10000000.000000', asset: 'USDT' } });
    const justAbove = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, amount: '10000000.000001' });
    expect(justAbove.msg).toBe('amount out of range');
    const [count] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM deposits WHERE user_id = $1', [user.userId]);
    expect(count!.count).toBe(0);
    // The cap itself is a report like any other.
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { ...body, amount: '10000000' })).code).toBe(200);
  });

  it('each role sees only what it reviews: compliance cannot open deposit screenshots, finance cannot open ID photos', async () => {
    const user = await newUser();
    const proof = await screenshot(user.token);
    const reported = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '10', txHash: TRON_TX('9'), proofUploadId: proof });
    const compliance = await createStaff(t.app, t.db, 'compliance1', ['compliance']);
    expect((await t.app.inject({ url: `/home/admin/deposits/${reported.data.id}/proof`, headers: { authorization: compliance } })).statusCode).toBe(403);
    // Through the compliance route, a deposit screenshot is not a verification photo.
    expect((await t.app.inject({ url: `/home/admin/uploads/${proof}`, headers: { authorization: compliance } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/home/admin/uploads/${proof}`, headers: { authorization: finance } })).statusCode).toBe(403);
  });
});

describe('withdrawal addresses are checked per network with real addresses', () => {
  const cases: [string, string, string | null][] = [
    ['bitcoin', VALID_ADDRESSES.bitcoin, null],
    ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', null],
    ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', null],
    ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', null],
    ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'checksum'],
    ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'],
    ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'wrong_network'],
    ['bitcoin', VALID_ADDRESSES.ethereum, 'wrong_network'],
    ['ethereum', VALID_ADDRESSES.ethereum, null],
    ['ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', null],
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'checksum'],
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'format'],
    ['ethereum', VALID_ADDRESSES.tron, 'wrong_network'],
    ['tron', VALID_ADDRESSES.tron, null],
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'checksum'],
    ['tron', VALID_ADDRESSES.ethereum, 'wrong_network'],
  ];

  it.each(cases)('%s %s → %s', async (network, address, problem) => {
    const user = await newUser();
    const answer = await call(t.app, 'POST', '/home/wallet/addresses', user.token, { network, address, label: 'test' });
    if (problem === null) {
      expect(answer.code).toBe(200);
      expect(answer.data.network).toBe(network);
    } else {
      expect(answer).toMatchObject({ code: 400, msg: 'wrong wallet address', data: { problem } });
    }
  });

  it('all-lowercase Ethereum addresses are stored checksummed; duplicates are refused; the book is bounded', async () => {
    const user = await newUser();
    const added = await call(t.app, 'POST', '/home/wallet/addresses', user.token, { network: 'ethereum', address: VALID_ADDRESSES.ethereum.toLowerCase() });
    expect(added.data.address).toBe(VALID_ADDRESSES.ethereum);
    expect(Date.parse(added.data.usableFrom) - Date.parse(added.data.createdAt)).toBe(24 * 3_600_000);
    expect((await call(t.app, 'POST', '/home/wallet/addresses', user.token, { network: 'ethereum', address: VALID_ADDRESSES.ethereum })).msg).toBe('already added');
    const [message] = await t.db.query<{ body: string }>('SELECT body FROM messages WHERE user_id = $1', [user.userId]);
    expect(message!.body).toContain(VALID_ADDRESSES.ethereum);
    expect((await call(t.app, 'DELETE', `/home/wallet/addresses/${added.data.id}`, user.token)).code).toBe(200);
    expect((await call(t.app, 'GET', '/home/wallet/addresses', user.token)).data.items).toEqual([]);
    // Bounded: 20 addresses at most.
    for (let index = 0; index < 20; index += 1) {
      const hex = (index + 1).toString(16).padStart(40, '0');
      expect((await call(t.app, 'POST', '/home/wallet/addresses', user.token, { network: 'ethereum', address: `0x${hex}` })).code).toBe(200);
    }
    expect((await call(t.app, 'POST', '/home/wallet/addresses', user.token, { network: 'ethereum', address: `0x${'f'.repeat(40)}` })).data).toEqual({ limit: 20 });
  });
});

describe('bank cards', () => {
  const card = { realName: 'Asha Verma', phone: '+91 98765 43210', bankName: 'State Bank of India', bankAccount: '123456789012', ifsc: 'sbin0001234', email: 'Asha@Example.com' };

  it('are validated field by field, stored normalised, listed and removed', async () => {
    const user = await newUser();
    const added = await call(t.app, 'POST', '/home/wallet/bank-cards', user.token, card);
    expect(added.data).toMatchObject({ phone: '+919876543210', ifsc: 'SBIN0001234', email: 'asha@example.com', bankAccount: '123456789012' });
    expect((await call(t.app, 'POST', '/home/wallet/bank-cards', user.token, card)).msg).toBe('already added');
    const fieldOf = async (patch: Record<string, string>) => (await call(t.app, 'POST', '/home/wallet/bank-cards', user.token, { ...card, ...patch }));
    expect((await fieldOf({ ifsc: 'SBIN1001234' })).data.fields[0].field).toBe('body.ifsc');
    expect((await fieldOf({ bankAccount: '12345' })).data.fields[0].field).toBe('body.bankAccount');
    expect((await fieldOf({ realName: '<b>x</b>' })).data.fields[0].field).toBe('body.realName');
    expect((await fieldOf({ bankAccount: '999999999', phone: '12345' })).msg).toBe('wrong phone number');
    expect((await fieldOf({ bankAccount: '999999999', email: 'not-an-email' })).data.fields).toEqual([{ field: 'body.email', message: 'incorrect email format' }]);
    expect((await call(t.app, 'GET', '/home/wallet/bank-cards', user.token)).data.items).toHaveLength(1);
    expect((await call(t.app, 'DELETE', `/home/wallet/bank-cards/${added.data.id}`, user.token)).code).toBe(200);
    expect((await call(t.app, 'GET', '/home/wallet/bank-cards', user.token)).data.items).toHaveLength(0);
  });
});
