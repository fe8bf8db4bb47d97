import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { escrowMismatches, fiatBalance, postAd, trader } from '../../helpers/p2p.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, type WalletUser } from '../../helpers/wallet.ts';

// Issue 6: the per-order chat (text, images, read state, withdrawal within 10 minutes, staff still
// see the original), appeals after the window resolved by support staff to release or refund, the
// system messages list, and BOLA: a third user reads no order, chat, image or appeal of others.

const USDT = 1_000_000n;
let t: TestApp;
let clockMs = Date.now();
let counter = 0;
let support: string;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(clockMs) });
  support = await createStaff(t.app, t.db, 'support01', ['support']);
});
afterAll(() => t.close());

const minutes = (count: number) => {
  clockMs += count * 60_000;
};
const name = (prefix: string) => {
  counter += 1;
  return `${prefix}${counter}x${Date.now().toString(36)}`.slice(0, 32);
};

async function paidOrder() {
  const seller = await trader(t.app, t.db, name('seller'), '500');
  const buyer = await trader(t.app, t.db, name('buyer'));
  const mallory = await trader(t.app, t.db, name('mallory'));
  const ad = await postAd(t.app, seller, '500');
  const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100' });
  await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/paid`, buyer.token);
  return { seller, buyer, mallory, orderId: placed.data.id as string };
}

async function chatImage(user: WalletUser) {
  const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();
  const response = await t.app.inject({ method: 'POST', url: '/home/uploads/image?purpose=chat', headers: { authorization: user.token, 'content-type': 'image/png' }, payload: png });
  return (response.json() as { data: { uploadId: string } }).data.uploadId;
}

describe('the order chat', () => {
  it('text and images between the two sides, read state, withdrawal within 10 minutes only', async () => {
    const { buyer, seller, orderId } = await paidOrder();
    const chat = (user: WalletUser) => call(t.app, 'GET', `/home/p2p/orders/${orderId}/chat`, user.token);
    const sent = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { text: 'Paid by IMPS, ref <b>42</b>' });
    expect(sent.data).toMatchObject({ from: 'me', kind: 'text', text: 'Paid by IMPS, ref <b>42</b>', read: false, withdrawn: false });
    const image = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { uploadId: await chatImage(buyer) });
    expect(image.data).toMatchObject({ kind: 'image', text: null, hasImage: true });
    // The seller reads them: the buyer then sees them read.
    const seen = await chat(seller);
    expect(seen.data.items.map((item: { from: string; text: string | null }) => [item.from, item.text])).toEqual([
      ['them', 'Paid by IMPS, ref <b>42</b>'],
      ['them', null],
    ]);
    expect((await chat(buyer)).data.items.every((item: { read: boolean }) => item.read)).toBe(true);
    const bytes = await t.app.inject({ url: `/home/p2p/orders/${orderId}/chat/${image.data.id}/image`, headers: { authorization: seller.token } });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');

    // Withdrawn within 10 minutes: the other side sees that it was, not what it said.
    minutes(9);
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat/${sent.data.id}/withdraw`, seller.token)).msg).toBe(
      'a message can be withdrawn only within 10 minutes',
    );
    const withdrawn = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat/${sent.data.id}/withdraw`, buyer.token);
    expect(withdrawn.data).toMatchObject({ withdrawn: true, text: null });
    expect((await chat(seller)).data.items[0]).toMatchObject({ withdrawn: true, text: null });
    minutes(2);
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat/${image.data.id}/withdraw`, buyer.token)).msg).toBe(
      'a message can be withdrawn only within 10 minutes',
    );
    // A chat image upload of someone else is not found; an empty or double message is a parameter error.
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, seller.token, { uploadId: await chatImage(buyer) })).msg).toBe('record does not exist');
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, seller.token, {})).msg).toBe('parameter error');
  });
});

describe('appeals', () => {
  it('open after the window only; the escrow stays; support staff see the full chat (also withdrawn) and release to the buyer', async () => {
    const { buyer, seller, orderId } = await paidOrder();
    const said = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, seller.token, { text: 'I have not received anything' });
    await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat/${said.data.id}/withdraw`, seller.token);
    const early = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, buyer.token, { reason: 'The seller does not release' });
    expect(early.data).toMatchObject({ problem: 'appeal_too_early' });
    minutes(15);
    const appealed = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, buyer.token, { reason: 'The seller does not release' });
    expect(appealed.data).toMatchObject({ status: 'appealing', statusCode: 4 });
    // Under appeal, the seller cannot release on their own, nor the buyer cancel.
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/release`, seller.token, { paymentPassword: '135790' })).data).toMatchObject({ problem: 'wrong_state' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 0n, frozenMinor: 500n * USDT });

    const queue = await call(t.app, 'GET', '/home/admin/p2p/appeals', support);
    const appeal = queue.data.items.find((item: { order: { id: string } }) => item.order.id === orderId);
    expect(appeal).toMatchObject({ openedBy: 'buyer', reason: 'The seller does not release', resolution: null });
    expect(appeal.chat).toEqual([expect.objectContaining({ from: 'seller', text: 'I have not received anything', withdrawnAt: expect.any(String) })]);
    expect((await call(t.app, 'GET', `/home/admin/p2p/appeals/${orderId}`, support)).data).toEqual(appeal);

    const resolved = await call(t.app, 'POST', `/home/admin/p2p/appeals/${orderId}/resolve`, support, { outcome: 'release', note: 'Bank statement shows the payment' });
    expect(resolved.data).toMatchObject({ resolution: 'release', resolvedBy: 'support01', order: { status: 'released' } });
    // One appeal by its order, as the back-office link opens it (ADR 0028): open, then resolved.
    expect((await call(t.app, 'GET', `/home/admin/p2p/appeals/${orderId}`, support)).data).toEqual(resolved.data);
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 99_900_000n, frozenMinor: 0n });
    expect((await call(t.app, 'POST', `/home/admin/p2p/appeals/${orderId}/resolve`, support, { outcome: 'refund', note: 'again' })).msg).toBe(
      'the order is not in a state for this step',
    );
    const [audit] = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'p2p_order' AND target_id = $1`, [orderId]);
    expect(audit!.action).toBe('p2p.appeal.release');
    expect(await escrowMismatches(t.db)).toEqual([]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('a refund returns the escrow to the seller; finance staff cannot reach appeals', async () => {
    const { buyer, seller, orderId } = await paidOrder();
    minutes(16);
    await call(t.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, seller.token, { reason: 'No money arrived at all' });
    const finance = await createStaff(t.app, t.db, name('finance'), ['finance']);
    expect((await call(t.app, 'GET', '/home/admin/p2p/appeals', finance)).msg).toBe('permission denied');
    expect((await call(t.app, 'GET', `/home/admin/p2p/appeals/${orderId}`, finance)).msg).toBe('permission denied');
    const resolved = await call(t.app, 'POST', `/home/admin/p2p/appeals/${orderId}/resolve`, support, { outcome: 'refund', note: 'No proof of payment' });
    expect(resolved.data).toMatchObject({ openedBy: 'seller', resolution: 'refund', order: { status: 'refunded', statusCode: 5 } });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 100n * USDT, frozenMinor: 400n * USDT });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    const messages = await call(t.app, 'GET', '/home/user/messages', buyer.token);
    expect(messages.data.items.slice(0, 2).map((item: { body: string }) => item.body)).toEqual([
      "Support staff's note on the appeal: No proof of payment",
      "Support staff decided the appeal: the coins returned to the seller's fiat account.",
    ]);
    expect(await escrowMismatches(t.db)).toEqual([]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});

describe('system messages', () => {
  it('lists newest first with the unread count, and marking read clears the tab-bar flag', async () => {
    const { buyer } = await paidOrder();
    const listed = await call(t.app, 'GET', '/home/user/messages', buyer.token);
    expect(listed.data.unread).toBe(2);
    expect(listed.data.items.map((item: { body: string }) => item.body.slice(0, 20))).toEqual(['You marked the order', 'Order placed: 100.00']);
    expect((await call(t.app, 'GET', '/home/user/unread', buyer.token)).data).toBe(true);
    expect((await call(t.app, 'POST', '/home/user/messages/read', buyer.token, { upToId: listed.data.items[0].id })).data).toEqual({ unread: 0 });
    expect((await call(t.app, 'GET', '/home/user/unread', buyer.token)).data).toBe(false);
  });
});

describe('a third user reads no order, chat, image or appeal of others', () => {
  it('every route answers "record does not exist"', async () => {
    const { buyer, mallory, orderId } = await paidOrder();
    const image = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { uploadId: await chatImage(buyer) });
    const text = await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, buyer.token, { text: 'hello' });
    expect((await call(t.app, 'GET', `/home/p2p/orders/${orderId}/chat`, mallory.token)).msg).toBe('record does not exist');
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat`, mallory.token, { text: 'hi' })).msg).toBe('record does not exist');
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/chat/${text.data.id}/withdraw`, mallory.token)).msg).toBe('record does not exist');
    expect((await t.app.inject({ url: `/home/p2p/orders/${orderId}/chat/${image.data.id}/image`, headers: { authorization: mallory.token } })).statusCode).toBe(404);
    const [upload] = await t.db.query<{ upload_id: bigint }>('SELECT upload_id FROM p2p_chat_messages WHERE id = $1', [image.data.id]);
    expect((await t.app.inject({ url: `/home/uploads/${upload!.upload_id}`, headers: { authorization: mallory.token } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/home/uploads/${upload!.upload_id}`, headers: { authorization: buyer.token } })).statusCode).toBe(200);
    minutes(16);
    expect((await call(t.app, 'POST', `/home/p2p/orders/${orderId}/appeal`, mallory.token, { reason: 'I want to see it' })).msg).toBe('record does not exist');
    // Nothing of theirs to list either.
    expect((await call(t.app, 'GET', '/home/p2p/orders?scope=in_progress', mallory.token)).data.items).toEqual([]);
    expect((await call(t.app, 'GET', `/home/p2p/orders/${orderId}/chat`, buyer.token)).data.items).toHaveLength(2);
  });
});
