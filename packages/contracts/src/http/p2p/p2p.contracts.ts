import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, multilineText, pageQuerySchema, plainText, secretText } from '../common.ts';
import { decimalAmountSchema } from '../assets/assets.contracts.ts';
import { twoPersonReasonSchema } from '../admin/two-person.contracts.ts';
import { validationMessages } from '../validation.ts';

/**
 * Fiat P2P (issue 6): sell ads whose quantity sits in escrow (a ledger hold), buy ads (issue 19)
 * whose sellers' coins are held order by order when they sell into them, and orders against both:
 * awaiting payment (0) → paid (1) → released (2), or cancelled. The fiat moves outside Keel.
 * Only USDT is traded in this first part (the spec's currency symbol).
 */

export const p2pAdSides = ['sell', 'buy'] as const;

export const p2pOrderStatuses = ['awaiting_payment', 'paid', 'released', 'cancelled', 'appealing', 'refunded'] as const;

export const p2pAdSchema = z.object({
  id: idSchema,
  side: z.enum(p2pAdSides).describe('sell: the owner sells USDT (held in escrow); buy: the owner buys USDT (sellers\' coins are held per order)'),
  ownerId: idSchema,
  ownerName: z.string().describe('the seller of a sell ad, the buyer of a buy ad; never a full contact'),
  asset: z.literal('USDT'),
  fiat: z.string().describe('ISO 4217 currency of the price'),
  price: z.string().describe('fiat per 1 USDT, two decimals'),
  min: z.string(),
  max: z.string(),
  total: z.string(),
  remaining: z.string().describe('still offered (a buy ad: still wanted): not traded and not in an open order'),
  paymentWindowMinutes: z.number().int(),
  contact: z.string(),
  remark: z.string(),
  status: z.enum(['open', 'closed']),
  mine: z.boolean(),
  createdAt: z.string(),
});

const adFields = {
  fiat: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, validationMessages.currencyCode),
  price: decimalAmountSchema.describe('fiat per 1 USDT, at most two decimals'),
  min: decimalAmountSchema,
  max: decimalAmountSchema,
  paymentWindowMinutes: z.number().int().min(5).max(120).default(15),
  contact: plainText(200).pipe(z.string().min(1, validationMessages.required)),
  remark: plainText(500).default(''),
};

export const listP2pAdsContract = defineContract({
  id: 'p2p.ads',
  method: 'GET',
  path: '/home/p2p/ads',
  summary:
    'Open ads of one side, best price first: sell ads to buy from (cheapest first) or buy ads to sell into (highest first). `mine=true`: your own ads of both sides, open and closed.',
  caller: 'user',
  query: pageQuerySchema.extend({
    side: z.enum(p2pAdSides).default('sell'),
    fiat: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/).optional(),
    mine: z.enum(['true', 'false']).default('false'),
  }),
  data: z.object({ items: z.array(p2pAdSchema), total: z.number().int() }),
  errors: [],
});

export const postP2pAdContract = defineContract({
  id: 'p2p.postAd',
  method: 'POST',
  path: '/home/p2p/ads',
  summary:
    'Post an ad. A sell ad freezes its total quantity (a ledger hold on your fiat account, the account P2P trades from) until sold, or returns it when the ad is reduced or closed; a buy ad states the quantity wanted and holds nothing (each seller who sells into it has their coins held for that order). Needs identity verification and a bound contact method. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  body: z.object({ ...adFields, side: z.enum(p2pAdSides).default('sell'), total: decimalAmountSchema }),
  data: p2pAdSchema,
  errors: ['IDENTITY_VERIFICATION_REQUIRED', 'CONTACT_METHOD_REQUIRED', 'WRONG_AMOUNT', 'WRONG_PURCHASE_QUANTITY', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const editP2pAdContract = defineContract({
  id: 'p2p.editAd',
  method: 'PUT',
  path: '/home/p2p/ads/:adId',
  summary: 'Edit your open ad: price, limits, window, contact, remark; `remaining` may only go down, and what it lets go returns to your balance. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ adId: idSchema }),
  body: z.object({ ...adFields, remaining: decimalAmountSchema }),
  data: p2pAdSchema,
  errors: ['RECORD_NOT_FOUND', 'AD_NOT_AVAILABLE', 'WRONG_AMOUNT', 'WRONG_PURCHASE_QUANTITY', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const closeP2pAdContract = defineContract({
  id: 'p2p.closeAd',
  method: 'POST',
  path: '/home/p2p/ads/:adId/close',
  summary: 'Close your ad: what it still offers returns to your balance; its open orders keep their escrow until they end. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ adId: idSchema }),
  data: p2pAdSchema,
  errors: ['RECORD_NOT_FOUND', 'AD_NOT_AVAILABLE', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const p2pOrderSchema = z.object({
  id: idSchema,
  orderNo: z.string(),
  adId: idSchema,
  adSide: z.enum(p2pAdSides).describe('the side of the ad the order was placed on'),
  role: z.enum(['buyer', 'seller']).describe("the caller's side of this order"),
  buyerName: z.string(),
  sellerName: z.string(),
  asset: z.literal('USDT'),
  fiat: z.string(),
  quantity: z.string(),
  price: z.string(),
  total: z.string().describe('what the buyer pays in fiat, outside Keel'),
  fee: z.string().describe('0.1 % of the quantity rounded up, less the buyer’s VIP discount rounded down, taken on release'),
  feeBeforeDiscount: z.string().describe('0.1 % of the quantity, rounded up, before the VIP discount (ADR 0046)'),
  vipLevel: z.number().int().describe('the buyer’s VIP level the fee uses: recorded at release, else the level now'),
  vipDiscountBps: z.number().int(),
  buyerReceives: z.string(),
  remark: z.string(),
  status: z.enum(p2pOrderStatuses),
  statusCode: z.number().int().describe('0 awaiting payment, 1 paid, 2 released, 3 cancelled, 4 under appeal, 5 refunded'),
  cancelReason: z.enum(['buyer', 'expired']).nullable(),
  paymentDeadline: z.string(),
  paidAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  sellerContact: z.string().describe('where the buyer pays: the sell ad\'s contact, or the details the seller gave when selling into a buy ad'),
  buyerContact: z.string().nullable().describe('the buy ad\'s contact (an order on a buy ad); null on a sell ad'),
  closingEntryId: z.string().nullable(),
  createdAt: z.string(),
});

export const placeP2pOrderContract = defineContract({
  id: 'p2p.placeOrder',
  method: 'POST',
  path: '/home/p2p/orders',
  summary:
    "Take the other side of an ad, a quantity within its min, max and what it has left. On a sell ad you buy: the coins are already in escrow; pay the seller the total within the payment window, then mark the order paid. On a buy ad you sell: your coins are held now from your fiat account (the account P2P trades from), and `contact` (required) tells the buyer where to pay you; release when the fiat has arrived. Needs an Idempotency-Key header.",
  caller: 'user',
  idempotent: true,
  body: z.object({
    adId: idSchema,
    quantity: decimalAmountSchema,
    remark: plainText(200).default(''),
    contact: plainText(200).optional().describe('selling into a buy ad: your payment details for the buyer'),
  }),
  data: p2pOrderSchema,
  errors: [
    'RECORD_NOT_FOUND',
    'AD_NOT_AVAILABLE',
    'CANNOT_SELL_OWN_ORDER',
    'WRONG_PURCHASE_QUANTITY',
    'WRONG_AMOUNT',
    'IDENTITY_VERIFICATION_REQUIRED',
    'ADVANCED_VERIFICATION_REQUIRED',
    'ORDERING_RESTRICTED',
    'INSUFFICIENT_BALANCE',
    'IDEMPOTENCY_KEY_REQUIRED',
  ],
});

export const listP2pOrdersContract = defineContract({
  id: 'p2p.orders',
  method: 'GET',
  path: '/home/p2p/orders',
  summary: 'Your P2P orders as buyer or seller, newest first: in progress (awaiting payment, paid, under appeal) or completed.',
  caller: 'user',
  query: pageQuerySchema.extend({ scope: z.enum(['in_progress', 'completed']).default('in_progress') }),
  data: z.object({ items: z.array(p2pOrderSchema), total: z.number().int() }),
  errors: [],
});

export const getP2pOrderContract = defineContract({
  id: 'p2p.order',
  method: 'GET',
  path: '/home/p2p/orders/:orderId',
  summary: 'One of your P2P orders (as buyer or seller), with the remaining payment time.',
  caller: 'user',
  params: z.object({ orderId: idSchema }),
  data: p2pOrderSchema,
  errors: ['RECORD_NOT_FOUND'],
});

const stepErrors = ['RECORD_NOT_FOUND', 'ORDER_STATE_CHANGED', 'IDEMPOTENCY_KEY_REQUIRED'];

export const markP2pOrderPaidContract = defineContract({
  id: 'p2p.markPaid',
  method: 'POST',
  path: '/home/p2p/orders/:orderId/paid',
  summary: 'The buyer says the fiat was sent, within the payment window. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ orderId: idSchema }),
  data: p2pOrderSchema,
  errors: stepErrors,
});

export const cancelP2pOrderContract = defineContract({
  id: 'p2p.cancel',
  method: 'POST',
  path: '/home/p2p/orders/:orderId/cancel',
  summary: 'The buyer cancels an order not yet marked paid; the quantity goes back to the ad. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ orderId: idSchema }),
  data: p2pOrderSchema,
  errors: stepErrors,
});

export const releaseP2pOrderContract = defineContract({
  id: 'p2p.release',
  method: 'POST',
  path: '/home/p2p/orders/:orderId/release',
  summary:
    'The seller, having received the fiat, releases the escrow with the payment password: the buyer\'s fiat account gets the quantity less the 0.1 % fee, in one journal entry. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ orderId: idSchema }),
  body: z.object({ paymentPassword: secretText(64) }),
  data: p2pOrderSchema,
  errors: [...stepErrors, 'PAYMENT_PASSWORD_NOT_SET', 'WRONG_PAYMENT_PASSWORD', 'PAYMENT_PASSWORD_LOCKED', 'TOO_MANY_REQUESTS'],
});

export const appealP2pOrderContract = defineContract({
  id: 'p2p.appeal',
  method: 'POST',
  path: '/home/p2p/orders/:orderId/appeal',
  summary:
    'Either side appeals a paid order that was not released within the payment window after it was marked paid. The escrow stays frozen until support staff decide; the chat is the evidence. Needs an Idempotency-Key header.',
  caller: 'user',
  idempotent: true,
  params: z.object({ orderId: idSchema }),
  body: z.object({ reason: plainText(500).pipe(z.string().min(5, validationMessages.appealReason)) }),
  data: p2pOrderSchema,
  errors: [...stepErrors],
});

export const p2pChatMessageSchema = z.object({
  id: idSchema,
  orderId: idSchema,
  from: z.enum(['me', 'them']),
  kind: z.enum(['text', 'image']),
  /** The text; null for an image or a withdrawn message. Always shown as text, never as HTML. */
  text: z.string().nullable(),
  /** For an image: fetch it from `/home/p2p/orders/{orderId}/chat/{id}/image`. */
  hasImage: z.boolean(),
  withdrawn: z.boolean(),
  /** Whether the other side has seen it (for my messages) — theirs are marked read when I fetch the chat. */
  read: z.boolean(),
  createdAt: z.string(),
});

export const listP2pChatContract = defineContract({
  id: 'p2p.chat',
  method: 'GET',
  path: '/home/p2p/orders/:orderId/chat',
  summary: "The order's chat, oldest first (at most the last 500). The other side's messages are marked read.",
  caller: 'user',
  params: z.object({ orderId: idSchema }),
  data: z.object({ items: z.array(p2pChatMessageSchema) }),
  errors: ['RECORD_NOT_FOUND'],
});

export const sendP2pChatContract = defineContract({
  id: 'p2p.chatSend',
  method: 'POST',
  path: '/home/p2p/orders/:orderId/chat',
  summary: 'Send a text, or an image uploaded with purpose=chat, to the other side of the order.',
  caller: 'user',
  params: z.object({ orderId: idSchema }),
  body: z
    // Markup is allowed in the text: it is always shown as text.
    .object({ text: multilineText(1000).min(1).optional(), uploadId: idSchema.optional() })
    .refine((body) => (body.text === undefined) !== (body.uploadId === undefined), { message: validationMessages.textOrImage, path: ['text'] }),
  data: p2pChatMessageSchema,
  errors: ['RECORD_NOT_FOUND', 'TOO_MANY_ITEMS'],
});

export const withdrawP2pChatContract = defineContract({
  id: 'p2p.chatWithdraw',
  method: 'POST',
  path: '/home/p2p/orders/:orderId/chat/:messageId/withdraw',
  summary: 'Withdraw your own message within 10 minutes; the other side sees that it was withdrawn (support staff handling an appeal still see it).',
  caller: 'user',
  params: z.object({ orderId: idSchema, messageId: idSchema }),
  data: p2pChatMessageSchema,
  errors: ['RECORD_NOT_FOUND', 'WITHDRAW_WINDOW_OVER'],
});

export const getP2pChatImageContract = defineContract({
  id: 'p2p.chatImage',
  method: 'GET',
  path: '/home/p2p/orders/:orderId/chat/:messageId/image',
  summary: 'An image of the order chat, for the two sides of the order.',
  caller: 'user',
  params: z.object({ orderId: idSchema, messageId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['RECORD_NOT_FOUND'],
});

const appealRoles = ['admin', 'support'] as const;

export const staffChatMessageSchema = z.object({
  id: idSchema,
  from: z.enum(['buyer', 'seller']),
  kind: z.enum(['text', 'image']),
  /** The original text, also of a withdrawn message. */
  text: z.string().nullable(),
  hasImage: z.boolean(),
  withdrawnAt: z.string().nullable(),
  createdAt: z.string(),
});

export const p2pAppealSchema = z.object({
  order: p2pOrderSchema.omit({ role: true }),
  buyerId: idSchema,
  sellerId: idSchema,
  openedBy: z.enum(['buyer', 'seller']),
  reason: z.string(),
  openedAt: z.string(),
  resolution: z.enum(['release', 'refund']).nullable(),
  /** Who carried the resolution out (the second member, when two were needed). */
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** The note both sides read. */
  note: z.string().nullable(),
  /**
   * When two support members are needed: the outcome the first one proposed, with their note, who
   * and when. A different member asking for the same outcome carries it out; the other outcome
   * replaces the proposal (ADR 0022). Kept after the resolution.
   */
  proposal: z.object({ outcome: z.enum(['release', 'refund']), note: z.string(), staff: z.string(), at: z.string() }).nullable(),
  /** Why two members are needed (null while one may resolve it alone). */
  twoPersonReason: twoPersonReasonSchema.nullable(),
  chat: z.array(staffChatMessageSchema),
});

export const listP2pAppealsContract = defineContract({
  id: 'admin.p2pAppeals',
  method: 'GET',
  path: '/home/admin/p2p/appeals',
  summary: 'P2P appeals: open ones oldest first, resolved ones newest first, each with the order and the full chat.',
  caller: 'staff',
  staffRoles: appealRoles,
  query: pageQuerySchema.extend({ status: z.enum(['open', 'resolved']).default('open') }),
  data: z.object({ items: z.array(p2pAppealSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const getP2pAppealContract = defineContract({
  id: 'admin.p2pAppeal',
  method: 'GET',
  path: '/home/admin/p2p/appeals/:orderId',
  summary: 'One appeal, open or resolved, by its order, with the order and the full chat (the back-office link to it; ADR 0028).',
  caller: 'staff',
  staffRoles: appealRoles,
  params: z.object({ orderId: idSchema }),
  data: p2pAppealSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});

export const resolveP2pAppealContract = defineContract({
  id: 'admin.p2pResolve',
  method: 'POST',
  path: '/home/admin/p2p/appeals/:orderId/resolve',
  summary:
    'Resolve an appeal: release the escrow to the buyer (less the fee) or refund it to the seller, with a note both sides read. Staff choose only between these two; no amount is typed. When the two-person rule applies (above the published appeal threshold, or past the per-staff or per-user limit) the first member only proposes the outcome, and a different member asking for the same outcome carries it out. Needs an Idempotency-Key header.',
  caller: 'staff',
  staffRoles: appealRoles,
  idempotent: true,
  params: z.object({ orderId: idSchema }),
  body: z.object({ outcome: z.enum(['release', 'refund']), note: plainText(500).pipe(z.string().min(3, validationMessages.appealNote)) }),
  data: p2pAppealSchema,
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND', 'ORDER_STATE_CHANGED', 'SECOND_APPROVER_REQUIRED', 'IDEMPOTENCY_KEY_REQUIRED'],
});

export const getStaffChatImageContract = defineContract({
  id: 'admin.p2pChatImage',
  method: 'GET',
  path: '/home/admin/p2p/chat/:messageId/image',
  summary: 'An image of an order chat under appeal, for support staff; each view is written to the audit log.',
  caller: 'staff',
  staffRoles: appealRoles,
  params: z.object({ messageId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['PERMISSION_DENIED', 'RECORD_NOT_FOUND'],
});
