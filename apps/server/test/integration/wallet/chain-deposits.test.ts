import { deriveDepositAddress } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { startEthereumNode, type TestEthereumNode } from '../../helpers/ethereum-node.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, coinBalance, TEST_XPUB, walletUser } from '../../helpers/wallet.ts';

// Issue 5, "must show": deposits checked on chain against a local Ethereum development node
// (ganache, in process), with a real ETH transfer and a real ERC20 token deployed in the test. With
// ETHEREUM_RPC_URL set, ETH and USDT-ERC20 deposits are credited after the confirmations with no
// staff step; wrong amounts and failed transactions are refused with the reason.

const CONFIRMATIONS = 3;

let node: TestEthereumNode;
let token: `0x${string}`;
let t: TestApp;

beforeAll(async () => {
  node = await startEthereumNode();
  token = await node.deployToken();
  t = await createTestApp(
    {
      ETHEREUM_RPC_URL: node.rpcUrl,
      ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      ETHEREUM_USDT_CONTRACT: token,
      ETHEREUM_USDT_DECIMALS: '6',
      DEPOSIT_XPUB_ETHEREUM: TEST_XPUB,
      CHAIN_CHECK_INTERVAL_MS: '100',
    },
    { chainWatchIntervalMs: 100 },
  );
});
afterAll(async () => {
  await t?.close();
  await node?.close();
});

async function depositStatus(token: string, id: string) {
  return (await call(t.app, 'GET', `/home/wallet/deposits/${id}`, token)).data;
}

describe('on-chain deposits (ETH and ERC20) against a local Ethereum node', () => {
  it('an ETH transfer to the user’s derived address is credited after the confirmations, with no staff step', async () => {
    const user = await walletUser(t.app, t.db, 'chainuser1');
    const overview = await call(t.app, 'GET', '/home/wallet/overview', user.token);
    expect(overview.data.channels.find((channel: { id: string }) => channel.id === 'ETH')).toMatchObject({
      depositReview: 'chain',
      confirmations: CONFIRMATIONS,
    });
    const address = (await call(t.app, 'GET', '/home/wallet/deposit-address?channel=ETH', user.token)).data;
    expect(address).toMatchObject({ network: 'ethereum', demo: false });
    // The address is derived from the operator's xpub, nothing else: the first user gets index 0.
    expect(address.address).toBe(deriveDepositAddress('ethereum', TEST_XPUB, 0));

    const txHash = await node.sendEth({ from: 1, to: address.address, amountWei: 1_234_567_890_000_000_000n });
    const reported = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'ETH', amount: '1.23456789', txHash });
    expect(reported.data).toMatchObject({ status: 'pending', review: 'chain', confirmations: { seen: 0, required: CONFIRMATIONS } });
    // One confirmation so far: seen, not credited.
    await expect.poll(async () => (await depositStatus(user.token, reported.data.id)).confirmations.seen, { timeout: 10_000 }).toBe(1);
    expect((await depositStatus(user.token, reported.data.id)).status).toBe('pending');
    expect(await coinBalance(t.db, user.userId, 'ETH')).toEqual({ availableMinor: 0n, frozenMinor: 0n });

    await node.mine(CONFIRMATIONS - 1);
    await expect.poll(async () => (await depositStatus(user.token, reported.data.id)).status, { timeout: 10_000 }).toBe('approved');
    const credited = await depositStatus(user.token, reported.data.id);
    expect(credited.confirmations).toEqual({ seen: CONFIRMATIONS, required: CONFIRMATIONS });
    expect(credited.entryId).toMatch(/^\d+$/);
    expect(await coinBalance(t.db, user.userId, 'ETH')).toEqual({ availableMinor: 1_234_567_890_000_000_000n, frozenMinor: 0n });
    // Staff cannot decide a deposit the chain decides.
    const finance = await createStaff(t.app, t.db, 'chainfin1', ['finance']);
    expect((await call(t.app, 'POST', `/home/admin/deposits/${reported.data.id}/decision`, finance, { decision: 'approve' })).msg).toBe(
      'no longer pending review',
    );
    // The same transaction cannot be reported again.
    expect((await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'ETH', amount: '1.23456789', txHash })).msg).toBe(
      'transaction hash already submitted',
    );
    const [audit] = await t.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_log WHERE target_type = 'deposit'`);
    expect(audit!.count).toBe(0);
  });

  it('a USDT (ERC20) transfer of the deployed token is credited; one of the wrong amount is refused with both amounts', async () => {
    const user = await walletUser(t.app, t.db, 'chainuser2');
    const { address } = (await call(t.app, 'GET', '/home/wallet/deposit-address?channel=USDT-ERC20', user.token)).data;
    // The ETH and USDT-ERC20 channels share the network, so the user has one address for both.
    expect((await call(t.app, 'GET', '/home/wallet/deposit-address?channel=ETH', user.token)).data.address).toBe(address);

    const good = await node.sendToken({ token, from: 0, to: address, amountBaseUnits: 250_500_000n });
    const wrong = await node.sendToken({ token, from: 0, to: address, amountBaseUnits: 10_000_000n });
    await node.mine(CONFIRMATIONS);
    const first = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-ERC20', amount: '250.5', txHash: good });
    const second = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-ERC20', amount: '100', txHash: wrong });
    await expect.poll(async () => (await depositStatus(user.token, first.data.id)).status, { timeout: 10_000 }).toBe('approved');
    await expect.poll(async () => (await depositStatus(user.token, second.data.id)).status, { timeout: 10_000 }).toBe('rejected');
    expect((await depositStatus(user.token, second.data.id)).rejectReason).toBe(
      'the transaction sent 10.000000 USDT to your deposit address, not the 100.000000 USDT reported',
    );
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 250_500_000n, frozenMinor: 0n });
    // Refused, so the hash may be reported again with the right amount, and is then credited.
    const again = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-ERC20', amount: '10', txHash: wrong });
    await expect.poll(async () => (await depositStatus(user.token, again.data.id)).status, { timeout: 10_000 }).toBe('approved');
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 260_500_000n, frozenMinor: 0n });
    const messages = await t.db.query<{ title: string }>('SELECT title FROM messages WHERE user_id = $1 ORDER BY id', [user.userId]);
    expect(messages.map((row) => row.title)).toEqual([
      'Deposit credited: 250.500000 USDT',
      'Deposit not credited: 100.000000 USDT',
      'Deposit credited: 10.000000 USDT',
    ]);
  });

  it('a reverted token transfer is refused; a transfer to someone else’s address credits nothing', async () => {
    const user = await walletUser(t.app, t.db, 'chainuser3');
    const { address } = (await call(t.app, 'GET', '/home/wallet/deposit-address?channel=USDT-ERC20', user.token)).data;
    // Account 3 holds no tokens: the transfer is mined and reverts.
    const reverted = await node.sendToken({ token, from: 3, to: address, amountBaseUnits: 5_000_000n });
    const elsewhere = await node.sendToken({ token, from: 0, to: node.accounts[4]!.address, amountBaseUnits: 5_000_000n });
    await node.mine(CONFIRMATIONS);
    const first = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-ERC20', amount: '5', txHash: reverted });
    const second = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-ERC20', amount: '5', txHash: elsewhere });
    await expect.poll(async () => (await depositStatus(user.token, first.data.id)).status, { timeout: 10_000 }).toBe('rejected');
    await expect.poll(async () => (await depositStatus(user.token, second.data.id)).status, { timeout: 10_000 }).toBe('rejected');
    expect((await depositStatus(user.token, first.data.id)).rejectReason).toBe('the transaction failed on chain, so nothing was sent');
    expect(await coinBalance(t.db, user.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('BTC and TRON deposits still go to staff review (no gateway for them)', async () => {
    const overview = await call(t.app, 'GET', '/home/wallet/overview', (await walletUser(t.app, t.db, 'chainuser4')).token);
    const reviews = Object.fromEntries(overview.data.channels.map((channel: { id: string; depositReview: string }) => [channel.id, channel.depositReview]));
    expect(reviews).toEqual({ 'USDT-TRC20': 'staff', 'USDT-ERC20': 'chain', BTC: 'staff', ETH: 'chain' });
  });
});
