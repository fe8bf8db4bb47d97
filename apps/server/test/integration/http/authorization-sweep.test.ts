import { allContracts, type Contract, type ErrorKey, errorCatalogue, staffRoles } from '@keel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAd, trader } from '../../helpers/p2p.ts';
import { idFieldsOf, registeredRoutes, routeKey, valuesOfField } from '../../helpers/routes.ts';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, call, fund, TEST_XPUB, verifyUser, type WalletUser } from '../../helpers/wallet.ts';
import { addProduct, fundTreasury, specProduct } from '../earn/earn-helpers.ts';
import { addLoanProduct, fundLender, loanTerms } from '../loans/loans-helpers.ts';
import { deposit as c2cDeposit, makeMerchant, merchantStep, uploadProof } from '../c2c/c2c-helpers.ts';
import { sweepC2c } from '../../../src/use-cases/c2c/c2c-matching.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';

// Issue 13, "tests that keep each class out": an authorization sweep generated from the routes the
// server registers. Alice (a user) owns a real object of every kind a route can name by id, and
// Sally (a staff member) owns staff sessions. For every registered route that takes an id (a path
// parameter, or a query or body field that names an object), Mallory — a second user — and, for
// staff routes, every staff role the contract does not allow and a plain user token, call it with
// the owners' ids and are refused exactly as for an id nobody has; every staff token is refused a
// user route; a staff member's own things are refused to every other staff member; afterwards
// everything of Alice's and Sally's reads as before. A staff role the contract allows is
// owner-independent by design: it is checked only not to be refused by role. A registered route
// that takes an id and has no case here (and is not on the short reviewed list below) fails the
// sweep, so a route added later cannot skip it.

const UNKNOWN_ID = '987654321';
/** A loan product (a public offer, not an owned object): set up before the sweep. */
let loanProductId = '';
const USER_REFUSAL: ErrorKey = 'RECORD_NOT_FOUND';

/** The owners' objects by kind (Alice's, and Sally's `staff…`); `UNKNOWN` gives every kind an id nobody has. */
const objectKinds = [
  'user',
  'session',
  'verificationUpload',
  'submission',
  'depositProof',
  'deposit',
  'address',
  'withdrawal',
  'card',
  'ad',
  'p2pOrder',
  'chatText',
  'chatImage',
  'chatImageUnappealed',
  'chatUpload',
  'optionOrder',
  'position',
  'limitOrder',
  'earnSubscription',
  'earnChange',
  'loan',
  'loanUpload',
  'loanChange',
  'fundRequest',
  'fundInvestment',
  'c2cRequest',
  'c2cProof',
  'correction',
  'vipApplication',
  'quote',
  'message',
  'staff',
  'staffSession',
] as const;
type Objects = Record<(typeof objectKinds)[number], string>;
const UNKNOWN = Object.fromEntries(objectKinds.map((kind) => [kind, UNKNOWN_ID])) as Objects;

/** The attackers' own objects, for requests that mix one of theirs with one of the owners'. */
interface OwnObjects {
  /** Mallory's order (she buys from Alice's ad). */
  p2pOrder: string;
  /** A staff member other than Sally. */
  staffMember: string;
}

interface Attempt {
  url: string;
  body?: unknown;
}

interface SweepCase {
  /** The requests, built from Alice's ids (and, to compare, from ids nobody has) and the attacker's own objects. */
  attempts: (alice: Objects, own: OwnObjects) => Attempt[];
  /** User routes: who attacks. Mallory is verified; `newcomer` is a user who is not, for steps only they can take. */
  attacker?: 'mallory' | 'newcomer';
  /**
   * User routes: the answer, when it is not a refusal. `scoped` = the call acts on the caller's
   * own records only, so it succeeds and must leave Alice's untouched.
   */
  answer?: 'scoped';
  /** Staff routes: requests that even an allowed role gets answered as for an id nobody has (outside what the role reviews). */
  outsideRoleScope?: (alice: Objects, own: OwnObjects) => Attempt[];
  /** Staff routes on a member's own things (Sally's): every other staff member, whatever the role, is refused as for an id nobody has. */
  staffOwned?: true;
  /**
   * Id inputs (`body.productId`) that name a public offer nobody owns, beside an input that names an
   * owned object: both requests carry the same real offer, and only the owned input varies.
   */
  publicIdFields?: string[];
}

const dataPng = () => sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 9, g: 8, b: 7 } } }).png().toBuffer();

const identityBody = { realName: 'Mallory Example', country: 'DE', address: 'Musterstraße 1, Berlin', idType: 'passport', idNumber: 'C01X00T47' };
const advancedBody = { occupation: 'engineer', income: '50000 EUR', contactPhone: '+4915112345678' };
const photos = (id: string) => ({ frontUploadId: id, backUploadId: id, holdingUploadId: id });
const adEdit = { fiat: 'INR', price: '90.00', min: '10', max: '200', paymentWindowMinutes: 15, contact: 'UPI mallory@bank', remark: 'edited', remaining: '100' };

/** The sweep, keyed "METHOD /path" exactly as registered. */
const CASES: Record<string, SweepCase> = {
  // Account and security
  'DELETE /home/user/sessions/:sessionId': { attempts: (a) => [{ url: `/home/user/sessions/${a.session}` }] },
  'POST /home/user/messages/read': { attempts: (a) => [{ url: '/home/user/messages/read', body: { upToId: a.message } }], answer: 'scoped' },
  // Uploads and verification
  'GET /home/uploads/:uploadId': {
    attempts: (a) => [
      { url: `/home/uploads/${a.verificationUpload}` },
      { url: `/home/uploads/${a.depositProof}` },
      { url: `/home/uploads/${a.chatUpload}` },
      { url: `/home/uploads/${a.loanUpload}` },
    ],
  },
  'POST /home/verification/identity': {
    attacker: 'newcomer',
    attempts: (a) => [{ url: '/home/verification/identity', body: { ...identityBody, ...photos(a.verificationUpload), extraUploadId: a.verificationUpload } }],
  },
  'POST /home/verification/advanced': {
    attempts: (a) => [{ url: '/home/verification/advanced', body: { ...advancedBody, ...photos(a.verificationUpload), extraUploadId: a.verificationUpload } }],
  },
  'GET /home/admin/uploads/:uploadId': {
    attempts: (a) => [{ url: `/home/admin/uploads/${a.verificationUpload}` }],
    // Compliance reads verification photos only: not a deposit screenshot, not a chat image.
    outsideRoleScope: (a) => [{ url: `/home/admin/uploads/${a.depositProof}` }, { url: `/home/admin/uploads/${a.chatUpload}` }, { url: `/home/admin/uploads/${a.loanUpload}` }],
  },
  'GET /home/admin/verifications/:submissionId': { attempts: (a) => [{ url: `/home/admin/verifications/${a.submission}` }] },
  'POST /home/admin/verifications/:submissionId/decision': {
    attempts: (a) => [{ url: `/home/admin/verifications/${a.submission}/decision`, body: { decision: 'approve' } }],
  },
  // Staff accounts (admins manage them; each member their own sessions)
  'PUT /home/admin/staff/:staffId/roles': { attempts: (a) => [{ url: `/home/admin/staff/${a.staff}/roles`, body: { roles: ['admin'] } }] },
  'POST /home/admin/staff/:staffId/disable': { attempts: (a) => [{ url: `/home/admin/staff/${a.staff}/disable` }] },
  'POST /home/admin/staff/:staffId/enable': { attempts: (a) => [{ url: `/home/admin/staff/${a.staff}/enable` }] },
  'POST /home/admin/staff/:staffId/password-reset': { attempts: (a) => [{ url: `/home/admin/staff/${a.staff}/password-reset` }] },
  'GET /home/admin/staff/:staffId/sessions': { attempts: (a) => [{ url: `/home/admin/staff/${a.staff}/sessions` }] },
  'DELETE /home/admin/staff/:staffId/sessions/:sessionId': {
    attempts: (a) => [{ url: `/home/admin/staff/${a.staff}/sessions/${a.staffSession}` }],
    // Sally's session named under another member's account is not that member's.
    outsideRoleScope: (a, own) => [{ url: `/home/admin/staff/${own.staffMember}/sessions/${a.staffSession}` }],
  },
  'DELETE /home/admin/me/sessions/:sessionId': { attempts: (a) => [{ url: `/home/admin/me/sessions/${a.staffSession}` }], staffOwned: true },
  // Staff user management
  'PUT /home/admin/users/:userId/status': {
    attempts: (a) => [{ url: `/home/admin/users/${a.user}/status`, body: { status: 'banned', reason: 'sweep attempt' } }],
  },
  // Swap
  'POST /home/assets/swap': { attempts: (a) => [{ url: '/home/assets/swap', body: { quoteId: a.quote } }] },
  // Wallet
  'POST /home/wallet/deposits': {
    attempts: (a) => [{ url: '/home/wallet/deposits', body: { channel: 'USDT-TRC20', amount: '10', txHash: '8'.repeat(64), proofUploadId: a.depositProof } }],
  },
  'GET /home/wallet/deposits/:depositId': { attempts: (a) => [{ url: `/home/wallet/deposits/${a.deposit}` }] },
  'DELETE /home/wallet/addresses/:addressId': { attempts: (a) => [{ url: `/home/wallet/addresses/${a.address}` }] },
  'POST /home/wallet/withdrawals': {
    attempts: (a) => [{ url: '/home/wallet/withdrawals', body: { channel: 'USDT-TRC20', addressId: a.address, amount: '100', paymentPassword: '135790' } }],
  },
  'GET /home/wallet/withdrawals/:withdrawalId': { attempts: (a) => [{ url: `/home/wallet/withdrawals/${a.withdrawal}` }] },
  'POST /home/wallet/withdrawals/:withdrawalId/cancel': { attempts: (a) => [{ url: `/home/wallet/withdrawals/${a.withdrawal}/cancel` }] },
  'DELETE /home/wallet/bank-cards/:cardId': { attempts: (a) => [{ url: `/home/wallet/bank-cards/${a.card}` }] },
  'GET /home/admin/deposits': { attempts: (a) => [{ url: `/home/admin/deposits?user=${a.user}` }] },
  'GET /home/admin/deposits/:depositId': { attempts: (a) => [{ url: `/home/admin/deposits/${a.deposit}` }] },
  'GET /home/admin/deposits/:depositId/proof': { attempts: (a) => [{ url: `/home/admin/deposits/${a.deposit}/proof` }] },
  'POST /home/admin/deposits/:depositId/decision': {
    attempts: (a) => [{ url: `/home/admin/deposits/${a.deposit}/decision`, body: { decision: 'approve' } }],
  },
  'GET /home/admin/withdrawals': { attempts: (a) => [{ url: `/home/admin/withdrawals?user=${a.user}` }] },
  'GET /home/admin/withdrawals/:withdrawalId': { attempts: (a) => [{ url: `/home/admin/withdrawals/${a.withdrawal}` }] },
  'POST /home/admin/withdrawals/:withdrawalId/decision': {
    attempts: (a) => [{ url: `/home/admin/withdrawals/${a.withdrawal}/decision`, body: { decision: 'approve' } }],
  },
  'POST /home/admin/withdrawals/:withdrawalId/complete': {
    attempts: (a) => [{ url: `/home/admin/withdrawals/${a.withdrawal}/complete`, body: { txHash: 'a'.repeat(64) } }],
  },
  'POST /home/admin/withdrawals/:withdrawalId/fail': {
    attempts: (a) => [{ url: `/home/admin/withdrawals/${a.withdrawal}/fail`, body: { reason: 'sweep attempt' } }],
  },
  // P2P
  'PUT /home/p2p/ads/:adId': { attempts: (a) => [{ url: `/home/p2p/ads/${a.ad}`, body: adEdit }] },
  'POST /home/p2p/ads/:adId/close': { attempts: (a) => [{ url: `/home/p2p/ads/${a.ad}/close` }] },
  'GET /home/p2p/orders/:orderId': { attempts: (a) => [{ url: `/home/p2p/orders/${a.p2pOrder}` }] },
  'POST /home/p2p/orders/:orderId/paid': { attempts: (a) => [{ url: `/home/p2p/orders/${a.p2pOrder}/paid` }] },
  'POST /home/p2p/orders/:orderId/cancel': { attempts: (a) => [{ url: `/home/p2p/orders/${a.p2pOrder}/cancel` }] },
  'POST /home/p2p/orders/:orderId/release': {
    // Mallory's own, correct payment password: only the order decides.
    attempts: (a) => [{ url: `/home/p2p/orders/${a.p2pOrder}/release`, body: { paymentPassword: '135790' } }],
  },
  'POST /home/p2p/orders/:orderId/appeal': {
    attempts: (a) => [{ url: `/home/p2p/orders/${a.p2pOrder}/appeal`, body: { reason: 'the other side did not pay' } }],
  },
  'GET /home/p2p/orders/:orderId/chat': { attempts: (a) => [{ url: `/home/p2p/orders/${a.p2pOrder}/chat` }] },
  'POST /home/p2p/orders/:orderId/chat': {
    attempts: (a, own) => [
      { url: `/home/p2p/orders/${a.p2pOrder}/chat`, body: { text: 'hello from outside' } },
      // Alice's chat picture, sent in Mallory's own order.
      { url: `/home/p2p/orders/${own.p2pOrder}/chat`, body: { uploadId: a.chatUpload } },
    ],
  },
  'POST /home/p2p/orders/:orderId/chat/:messageId/withdraw': {
    attempts: (a, own) => [
      { url: `/home/p2p/orders/${a.p2pOrder}/chat/${a.chatText}/withdraw` },
      // Alice's message named through an order Mallory is a party of (Alice sells in both).
      { url: `/home/p2p/orders/${own.p2pOrder}/chat/${a.chatText}/withdraw` },
    ],
  },
  'GET /home/p2p/orders/:orderId/chat/:messageId/image': {
    attempts: (a, own) => [
      { url: `/home/p2p/orders/${a.p2pOrder}/chat/${a.chatImage}/image` },
      { url: `/home/p2p/orders/${own.p2pOrder}/chat/${a.chatImage}/image` },
    ],
  },
  'GET /home/admin/p2p/appeals/:orderId': { attempts: (a) => [{ url: `/home/admin/p2p/appeals/${a.p2pOrder}` }] },
  'POST /home/admin/p2p/appeals/:orderId/resolve': {
    attempts: (a) => [{ url: `/home/admin/p2p/appeals/${a.p2pOrder}/resolve`, body: { outcome: 'release', note: 'sweep attempt' } }],
  },
  'GET /home/admin/p2p/chat/:messageId/image': {
    attempts: (a) => [{ url: `/home/admin/p2p/chat/${a.chatImage}/image` }],
    // Support sees chat images of orders under appeal only; a text message has no image.
    outsideRoleScope: (a) => [{ url: `/home/admin/p2p/chat/${a.chatImageUnappealed}/image` }, { url: `/home/admin/p2p/chat/${a.chatText}/image` }],
  },
  // Contracts
  'GET /home/options/orders/:orderId': { attempts: (a) => [{ url: `/home/options/orders/${a.optionOrder}` }] },
  'GET /home/admin/options/orders': { attempts: (a) => [{ url: `/home/admin/options/orders?userId=${a.user}` }] },
  // Leveraged and futures positions
  'GET /home/leverage/positions/:positionId': { attempts: (a) => [{ url: `/home/leverage/positions/${a.position}` }] },
  'POST /home/leverage/positions/:positionId/close': { attempts: (a) => [{ url: `/home/leverage/positions/${a.position}/close`, body: {} }] },
  'POST /home/leverage/positions/:positionId/margin': {
    attempts: (a) => [
      { url: `/home/leverage/positions/${a.position}/margin`, body: { direction: 'add', amount: '1' } },
      { url: `/home/leverage/positions/${a.position}/margin`, body: { direction: 'remove', amount: '1' } },
    ],
  },
  'POST /home/leverage/positions/:positionId/triggers': {
    attempts: (a) => [{ url: `/home/leverage/positions/${a.position}/triggers`, body: { takeProfitPrice: null, stopLossPrice: null } }],
  },
  'POST /home/leverage/orders/:orderId/cancel': { attempts: (a) => [{ url: `/home/leverage/orders/${a.limitOrder}/cancel` }] },
  'GET /home/admin/leverage/positions': { attempts: (a) => [{ url: `/home/admin/leverage/positions?userId=${a.user}` }] },
  'GET /home/admin/leverage/positions/:positionId': { attempts: (a) => [{ url: `/home/admin/leverage/positions/${a.position}` }] },
  // Earn (issue 17)
  'GET /home/earn/subscriptions/:subscriptionId': { attempts: (a) => [{ url: `/home/earn/subscriptions/${a.earnSubscription}` }] },
  'POST /home/earn/subscriptions/:subscriptionId/redeem': {
    attempts: (a) => [{ url: `/home/earn/subscriptions/${a.earnSubscription}/redeem`, body: { paymentPassword: '135790' } }],
  },
  'POST /home/admin/earn/changes/:changeId/decision': { attempts: (a) => [{ url: `/home/admin/earn/changes/${a.earnChange}/decision`, body: { approve: false } }] },
  // Loans (issue 18): Alice's application and her holding-ID photo; an admin's product proposal.
  'POST /home/loans': {
    publicIdFields: ['body.productId'],
    attempts: (a) => [
      {
        url: '/home/loans',
        body: {
          productId: loanProductId,
          amount: '100',
          collateralAsset: 'USDT',
          collateralAmount: '200',
          holdingUploadId: a.loanUpload,
          agreementVersion: 1,
          agreementAccepted: true,
          paymentPassword: '135790',
        },
      },
    ],
  },
  'GET /home/loans/:loanId': { attempts: (a) => [{ url: `/home/loans/${a.loan}` }] },
  'POST /home/loans/:loanId/repay': { attempts: (a) => [{ url: `/home/loans/${a.loan}/repay`, body: { full: true, paymentPassword: '135790' } }] },
  'GET /home/admin/loans/:loanId': { attempts: (a) => [{ url: `/home/admin/loans/${a.loan}` }] },
  'GET /home/admin/loans/:loanId/holding-photo': { attempts: (a) => [{ url: `/home/admin/loans/${a.loan}/holding-photo` }] },
  'POST /home/admin/loans/:loanId/decision': {
    attempts: (a) => [{ url: `/home/admin/loans/${a.loan}/decision`, body: { decision: 'reject', reason: 'sweep attempt' } }],
  },
  // Fund (issue 18): Alice's request still in review (not in the pool: nobody else may see or invest
  // in it), and her investment in Bob's request.
  'GET /home/fund/requests/:requestId': { attempts: (a) => [{ url: `/home/fund/requests/${a.fundRequest}` }] },
  'POST /home/fund/requests/:requestId/investments': {
    attempts: (a) => [{ url: `/home/fund/requests/${a.fundRequest}/investments`, body: { amount: '20', paymentPassword: '135790' } }],
  },
  'GET /home/fund/investments/:investmentId': { attempts: (a) => [{ url: `/home/fund/investments/${a.fundInvestment}` }] },
  'POST /home/admin/fund/requests/:requestId/decision': {
    attempts: (a) => [{ url: `/home/admin/fund/requests/${a.fundRequest}/decision`, body: { decision: 'reject', reason: 'sweep attempt' } }],
  },
  'POST /home/admin/loan-products/changes/:changeId/decision': {
    attempts: (a) => [{ url: `/home/admin/loan-products/changes/${a.loanChange}/decision`, body: { approve: false } }],
  },
  // Staff corrections (issue 22, ADR 0039): one user's corrections, a proposal for Alice, the decision on one.
  'GET /home/admin/corrections': { attempts: (a) => [{ url: `/home/admin/corrections?status=pending&userId=${a.user}` }] },
  'POST /home/admin/corrections': {
    attempts: (a) => [
      { url: '/home/admin/corrections', body: { target: 'user', userId: a.user, account: 'coin', asset: 'USDT', amount: '1', reason: 'sweep attempt of a correction' } },
      // A merchant's float is a house account named by the merchant's staff id (Sally is no merchant: not found either way).
      {
        url: '/home/admin/corrections',
        body: { target: 'house', houseAccount: 'merchant_float', merchantId: a.staff, asset: 'USDT', amount: '1', reason: 'sweep attempt of a correction' },
      },
    ],
  },
  // C2C (issue 19): Alice's deposit, paid with her screenshot, assigned to a merchant who is not the
  // sweep's merchant member: the user steps are Alice's alone, the merchant steps and the
  // screenshot her merchant's alone (support reads screenshots only of orders under appeal).
  'GET /home/c2c/requests/:requestId': { attempts: (a) => [{ url: `/home/c2c/requests/${a.c2cRequest}` }] },
  'POST /home/c2c/requests/:requestId/paid': { attempts: (a) => [{ url: `/home/c2c/requests/${a.c2cRequest}/paid`, body: { uploadId: a.c2cProof } }] },
  'POST /home/c2c/requests/:requestId/confirm': { attempts: (a) => [{ url: `/home/c2c/requests/${a.c2cRequest}/confirm`, body: { paymentPassword: '135790' } }] },
  'POST /home/c2c/requests/:requestId/cancel': { attempts: (a) => [{ url: `/home/c2c/requests/${a.c2cRequest}/cancel` }] },
  'POST /home/c2c/requests/:requestId/appeal': { attempts: (a) => [{ url: `/home/c2c/requests/${a.c2cRequest}/appeal`, body: { reason: 'sweep attempt' } }] },
  ...Object.fromEntries(
    (
      [
        ['accept', undefined],
        ['decline', undefined],
        ['confirm', undefined],
        ['paid', { paymentReference: 'SWEEP-0001' }],
        ['appeal', { reason: 'sweep attempt' }],
      ] as const
    ).map(([step, body]) => [
      `POST /home/admin/c2c/merchant/requests/:requestId/${step}`,
      { attempts: (a: Objects) => [{ url: `/home/admin/c2c/merchant/requests/${a.c2cRequest}/${step}`, ...(body ? { body } : {}) }], staffOwned: true as const },
    ]),
  ),
  'GET /home/admin/c2c/requests/:requestId/proof': { attempts: (a) => [{ url: `/home/admin/c2c/requests/${a.c2cRequest}/proof` }], staffOwned: true },
  'POST /home/admin/c2c/appeals/:requestId/resolve': {
    attempts: (a) => [{ url: `/home/admin/c2c/appeals/${a.c2cRequest}/resolve`, body: { outcome: 'fail', note: 'sweep attempt' } }],
  },
  // VIP (issue 20, ADR 0046): compliance decides Alice's application (approval only within the rule).
  'POST /home/admin/vip/applications/:applicationId/decision': {
    attempts: (a) => [{ url: `/home/admin/vip/applications/${a.vipApplication}/decision`, body: { decision: 'approve' } }],
  },
  'POST /home/admin/corrections/:correctionId/decision': {
    attempts: (a) => [{ url: `/home/admin/corrections/${a.correction}/decision`, body: { approve: false } }],
  },
};

/**
 * Reviewed routes that take an id where the id is not an object only its owner may use, each with
 * the reason. Keep this list short: anything owned by someone needs a case above.
 */
const REVIEWED_NOT_OWNED: Record<string, string> = {
  'POST /home/wallet-connect/nonce':
    'chainId names an EIP-155 chain (a public number, only the configured one accepted), not a record anyone owns; the nonce is public and proves nothing until signed (wallet-connect tests)',
  'POST /home/earn/subscriptions': 'productId names an earn product, a public offer every user may subscribe to (earn tests)',
  'POST /home/admin/earn/changes':
    'productId names an earn product, which no user or staff member owns: an admin proposes a change to it, applied only on a second admin’s approval (earn-staff tests)',
  'GET /home/loans/agreement': 'productId names a loan product, a public offer; the agreement is computed for the numbers given and stored nowhere (loans tests)',
  'POST /home/admin/loan-products/changes':
    'productId names a loan product, which no user or staff member owns: an admin proposes a change to it, applied only on a second admin’s approval (loan-products tests)',
  'GET /home/proof/snapshots/:snapshotId': 'snapshotId names a published proof-of-liabilities snapshot, public to everyone (liability-snapshots tests)',
  'GET /home/proof/snapshots/:snapshotId/mine':
    'snapshotId names a public snapshot; the answer is always the caller’s own leaf and salt, never another user’s (liability-snapshots tests)',
  'GET /home/content/items/:itemId': 'itemId names published content (news, help, courses), public to everyone (content tests)',
  'GET /home/content/images/:imageId': 'imageId names an image of published content, public to everyone (content tests)',
  'GET /home/admin/content/items/:itemId':
    'itemId names a content item, which no user owns; only the content role may read drafts (content tests: every other role is refused)',
  'POST /home/admin/content/items': 'parentId names a course, a content item no user owns; content role only (content tests)',
  'PUT /home/admin/content/items/:itemId': 'itemId names a content item, which no user owns; content role only (content tests)',
  'PUT /home/admin/content/items/:itemId/translations/:language': 'itemId names a content item, which no user owns; content role only (content tests)',
  'DELETE /home/admin/content/items/:itemId/translations/:language': 'itemId names a content item, which no user owns; content role only (content tests)',
  'POST /home/admin/content/items/:itemId/publish': 'itemId names a content item, which no user owns; content role only (content tests)',
  'POST /home/admin/content/items/:itemId/unpublish': 'itemId names a content item, which no user owns; content role only (content tests)',
  'POST /home/p2p/orders':
    'adId names a sell ad, a public offer in the ad list: placing an order on another user’s ad is what the route is for (the seller cannot buy from their own ad: p2p-orders tests)',
};

/** Registered routes outside the API (no contract): none names an object. A new one with a path parameter fails the sweep. */
const NON_API_ROUTES: Record<string, string> = {
  'GET /healthz': 'health check: no session, no input',
  'GET /ws': 'WebSocket: a user authenticates inside with the session token and receives only their own events (realtime tests)',
  'GET /openapi.json': 'public API document',
  'GET /docs': 'public API reference page',
  'OPTIONS *': 'CORS preflight',
};

const contracts = allContracts as readonly Contract[];
const contractByKey = new Map(contracts.map((contract) => [routeKey(contract), contract]));
const idTaking = contracts.filter((contract) => idFieldsOf(contract).length > 0);
const withoutIds = contracts.filter((contract) => idFieldsOf(contract).length === 0);

function whySkipped(contract: Contract): string {
  if (contract.caller === 'public') return 'public: no session, nothing of anyone’s is named';
  if (contract.caller === 'user') return 'takes no id: acts on the session’s own user only';
  return 'staff, takes no id: names no one’s object';
}

let t: TestApp;
let alice: WalletUser;
let mallory: WalletUser;
let sally: string;
let newcomer: WalletUser;
let objects: Objects;
let own: OwnObjects;
/** One staff member per role, holding only that role. */
const staffTokens = new Map<string, string>();
let baseline: unknown;
let nowMs = Date.UTC(2026, 10, 24, 12, 0, 0);

interface Answer {
  status: number;
  code?: number;
  msg?: string;
  data?: unknown;
  file?: true;
}

async function send(method: string, attempt: Attempt, token: string): Promise<Answer> {
  const response = await t.app.inject({
    method: method as 'GET',
    url: attempt.url,
    headers: { authorization: token, 'idempotency-key': `sweep-${crypto.randomUUID()}` },
    ...(attempt.body === undefined ? {} : { payload: attempt.body as Record<string, unknown> }),
  });
  if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) return { status: response.statusCode, file: true };
  const { code, msg, data } = response.json() as { code: number; msg: string; data: unknown };
  return { status: response.statusCode, code, msg, data };
}

const refusal = (key: ErrorKey) => ({ status: errorCatalogue[key].status, code: errorCatalogue[key].status, msg: errorCatalogue[key].msg });

async function upload(user: WalletUser, purpose: 'verification' | 'deposit_proof' | 'chat' | 'loan_holding') {
  const response = await t.app.inject({
    method: 'POST',
    url: `/home/uploads/image?purpose=${purpose}`,
    headers: { authorization: user.token, 'content-type': 'image/png' },
    payload: await dataPng(),
  });
  const id = (response.json() as { data?: { uploadId?: string } }).data?.uploadId;
  if (!id) throw new Error(`setup: upload ${purpose}: ${response.body}`);
  return id;
}

async function ok(answer: Promise<{ code: number; msg: string; data: unknown }>, what: string) {
  const settled = await answer;
  if (settled.code !== 200) throw new Error(`setup: ${what}: ${settled.msg} ${JSON.stringify(settled.data)}`);
  // biome-ignore lint/suspicious/noExplicitAny: setup reads ids out of answers shaped by the contracts.
  return settled.data as any;
}

/** Everything of Alice's, read as Alice through the API, plus her quote (which has no read route); Sally's account and sessions as Sally. */
async function ownersState() {
  const read = async (url: string, token = alice.token) => {
    const answer = await call(t.app, 'GET', url, token);
    return { code: answer.code, data: answer.data };
  };
  const uploadStatus = async (id: string) => (await t.app.inject({ url: `/home/uploads/${id}`, headers: { authorization: alice.token } })).statusCode;
  const reads = {
    me: read('/home/user/me'),
    sessions: read('/home/user/sessions'),
    verification: read('/home/verification'),
    accounts: read('/home/assets/accounts'),
    records: read('/home/assets/records'),
    deposit: read(`/home/wallet/deposits/${objects.deposit}`),
    withdrawal: read(`/home/wallet/withdrawals/${objects.withdrawal}`),
    addresses: read('/home/wallet/addresses'),
    cards: read('/home/wallet/bank-cards'),
    ads: read('/home/p2p/ads?mine=true'),
    order: read(`/home/p2p/orders/${objects.p2pOrder}`),
    chat: read(`/home/p2p/orders/${objects.p2pOrder}/chat`),
    optionOrder: read(`/home/options/orders/${objects.optionOrder}`),
    position: read(`/home/leverage/positions/${objects.position}`),
    limitOrders: read('/home/leverage/orders?scope=open'),
    earnSubscription: read(`/home/earn/subscriptions/${objects.earnSubscription}`),
    loan: read(`/home/loans/${objects.loan}`),
    fundRequest: read(`/home/fund/requests/${objects.fundRequest}`),
    fundInvestment: read(`/home/fund/investments/${objects.fundInvestment}`),
    c2cRequest: read(`/home/c2c/requests/${objects.c2cRequest}`),
    messages: read('/home/user/messages'),
    uploads: Promise.all([objects.verificationUpload, objects.depositProof, objects.chatUpload, objects.loanUpload, objects.c2cProof].map(uploadStatus)),
    quote: t.db.query('SELECT * FROM swap_quotes WHERE id = $1', [objects.quote]),
    sally: read('/home/admin/me', sally),
    sallySessions: read('/home/admin/me/sessions', sally),
  };
  const values = await Promise.all(Object.values(reads));
  return Object.fromEntries(Object.keys(reads).map((name, index) => [name, values[index]]));
}

beforeAll(async () => {
  t = await createTestApp({ DEPOSIT_XPUB_TRON: TEST_XPUB }, { market: true, now: () => new Date(nowMs) });
  // Each table's ids in a range of their own, so an id of one kind is never also a valid id of
  // another: a route reading the wrong table, or the cross-check below, cannot pass by chance.
  const sequences = await t.db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`,
  );
  for (const [index, sequence] of sequences.entries()) await t.db.query('SELECT setval($1::regclass, $2)', [sequence.name, (index + 1) * 1_000_000]);
  alice = await trader(t.app, t.db, 'alicesweep1', '1000');
  const bob = await trader(t.app, t.db, 'bobsweep01', '100');
  mallory = await trader(t.app, t.db, 'mallorysweep1', '1000');
  // trader() funds the fiat account (P2P's); the withdrawal, earn, loan and fund steps below draw on Alice's coin account.
  await fund(t.db, alice.userId, 'USDT', '1000');
  newcomer = await registerViaApi(t.app, 'newcomersweep1').then((session) => ({ ...session, username: 'newcomersweep1' }));
  await fund(t.db, alice.userId, 'USDT', '500', 'options');
  for (const role of staffRoles) staffTokens.set(role, await createStaff(t.app, t.db, `sweep${role}`, [role]));
  sally = await createStaff(t.app, t.db, 'sweepsally', ['support']);

  const aliceUpload = await upload(alice, 'verification');
  const submission = await ok(
    call(t.app, 'POST', '/home/verification/advanced', alice.token, { ...advancedBody, contactPhone: '+4915112345679', ...photos(aliceUpload) }),
    'advanced verification',
  );
  const depositProof = await upload(alice, 'deposit_proof');
  const deposit = await ok(
    call(t.app, 'POST', '/home/wallet/deposits', alice.token, { channel: 'USDT-TRC20', amount: '10', txHash: '7'.repeat(64), proofUploadId: depositProof }),
    'deposit',
  );
  const address = await bindAddress(t.app, t.db, alice, 'tron', { usableNow: true });
  const withdrawal = await ok(
    call(t.app, 'POST', '/home/wallet/withdrawals', alice.token, { channel: 'USDT-TRC20', addressId: address, amount: '100', paymentPassword: '135790' }),
    'withdrawal',
  );
  const card = await ok(
    call(t.app, 'POST', '/home/wallet/bank-cards', alice.token, {
      realName: 'Alice Example',
      phone: '+4915112345678',
      bankName: 'Example Bank',
      bankAccount: '123456789',
      ifsc: 'EXMP0123456',
      email: 'alice@example.com',
    }),
    'bank card',
  );
  const ad = await postAd(t.app, alice, '300');
  // Alice sells to Bob; Bob pays and, after the payment window, appeals (support staff see the
  // chat images of appealed orders only). Mallory buys from Alice too: her own order.
  const p2pOrder = await ok(call(t.app, 'POST', '/home/p2p/orders', bob.token, { adId: ad.id, quantity: '20' }), 'order of Bob');
  const malloryOrder = await ok(call(t.app, 'POST', '/home/p2p/orders', mallory.token, { adId: ad.id, quantity: '20' }), 'order of Mallory');
  await ok(call(t.app, 'POST', `/home/p2p/orders/${p2pOrder.id}/paid`, bob.token), 'paid');
  nowMs += 16 * 60_000;
  await ok(call(t.app, 'POST', `/home/p2p/orders/${p2pOrder.id}/appeal`, bob.token, { reason: 'the seller does not release' }), 'appeal');
  const chatText = await ok(call(t.app, 'POST', `/home/p2p/orders/${p2pOrder.id}/chat`, alice.token, { text: 'pay to UPI alice@bank' }), 'chat text');
  const chatUpload = await upload(alice, 'chat');
  const chatImage = await ok(call(t.app, 'POST', `/home/p2p/orders/${p2pOrder.id}/chat`, alice.token, { uploadId: chatUpload }), 'chat image');
  const chatImageUnappealed = await ok(
    call(t.app, 'POST', `/home/p2p/orders/${malloryOrder.id}/chat`, alice.token, { uploadId: await upload(alice, 'chat') }),
    'chat image, no appeal',
  );
  await t.market!.record([{ symbol: 'BTC/USDT', price: '50000', atMs: nowMs }]);
  await ok(call(t.app, 'POST', '/home/options/disclosure', alice.token, { version: 1 }), 'disclosure');
  const optionOrder = await ok(
    call(t.app, 'POST', '/home/options/orders', alice.token, { symbol: 'BTC/USDT', direction: 'up', cycleSeconds: 30, amount: '100' }),
    'option order',
  );
  await fund(t.db, alice.userId, 'USDT', '500', 'leveraged');
  await ok(call(t.app, 'POST', '/home/leverage/disclosure', alice.token, { version: 1 }), 'leverage disclosure');
  const position = await ok(
    call(t.app, 'POST', '/home/leverage/positions', alice.token, { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20 }),
    'position',
  );
  const limitOrder = await ok(
    call(t.app, 'POST', '/home/leverage/orders', alice.token, { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20, limitPrice: '40000' }),
    'limit order',
  );
  // An earn subscription of Alice's, and a product change proposed by an admin (issue 17).
  const earnProductId = await addProduct(t.db, specProduct({ name: 'Sweep' }));
  await fundTreasury(t.db, '1000');
  await ok(call(t.app, 'POST', '/home/earn/acknowledgement', alice.token, { version: 1 }), 'earn acknowledgement');
  const earnSubscription = await ok(
    call(t.app, 'POST', '/home/earn/subscriptions', alice.token, { productId: earnProductId, amount: '100', paymentPassword: '135790', termsVersion: 1 }),
    'earn subscription',
  );
  const proposer = await createStaff(t.app, t.db, 'sweepearnproposer', ['admin']);
  const earnChange = await ok(
    call(t.app, 'POST', '/home/admin/earn/changes', proposer, {
      kind: 'lockup', name: 'Sweep proposal', asset: 'USDT', cycleDays: 5, dailyRatePercent: '0.3', penaltyRatePercent: '0.4', payoutTimeUtc: '00:00',
      earlyRedemption: true, minAmount: '100', maxAmount: '1000', userQuota: '1000', totalQuota: '10000', open: true,
    }, null),
    'earn product proposal',
  );
  // A loan application of Alice's, pledging USDT, with her holding-ID photo; an admin's loan product proposal (issue 18).
  loanProductId = await addLoanProduct(t.db, loanTerms({ name: 'Sweep loan' }));
  await fundLender(t.db, '1000');
  const loanUpload = await upload(alice, 'loan_holding');
  const loan = await ok(
    call(t.app, 'POST', '/home/loans', alice.token, {
      productId: loanProductId, amount: '100', collateralAsset: 'USDT', collateralAmount: '200', holdingUploadId: loanUpload,
      agreementVersion: 1, agreementAccepted: true, paymentPassword: '135790',
    }),
    'loan application',
  );
  const loanChange = await ok(
    call(t.app, 'POST', '/home/admin/loan-products/changes', proposer, {
      name: 'Sweep loan proposal', cycleDays: 7, dailyRatePercent: '0.1', minAmount: '100', maxAmount: '1000',
      collateral: [{ asset: 'BTC', ltvPercent: '60' }], marginCallLtvPercent: '80', liquidationLtvPercent: '90', open: true,
    }, null),
    'loan product proposal',
  );
  // Alice's funding request in review, and her investment in Bob's request in the pool (issue 18).
  await verifyUser(t.db, alice.userId, ['advanced']);
  await verifyUser(t.db, bob.userId, ['advanced']);
  await fund(t.db, bob.userId, 'USDT', '200');
  const fundTerms = { borrowerType: 'individual', title: 'Sweep', purpose: 'Sweep', dailyRatePercent: '0.1', termDays: 10, tranches: 1, releasePeriodDays: 0, windowHours: 24, collateralAsset: 'USDT', paymentPassword: '135790' };
  const fundRequest = await ok(call(t.app, 'POST', '/home/fund/requests', alice.token, { ...fundTerms, amount: '100', collateralAmount: '150' }), 'fund request of Alice');
  const bobsRequest = await ok(call(t.app, 'POST', '/home/fund/requests', bob.token, { ...fundTerms, amount: '100', collateralAmount: '150' }), 'fund request of Bob');
  await ok(call(t.app, 'POST', `/home/admin/fund/requests/${bobsRequest.id}/decision`, staffTokens.get('compliance')!, { decision: 'approve' }, null), 'fund approval');
  const fundInvestment = await ok(
    call(t.app, 'POST', `/home/fund/requests/${bobsRequest.id}/investments`, alice.token, { amount: '50', paymentPassword: '135790' }),
    'fund investment of Alice',
  );
  const correction = await ok(
    call(t.app, 'POST', '/home/admin/corrections', staffTokens.get('finance')!, {
      target: 'user', userId: alice.userId, account: 'coin', asset: 'USDT', amount: '5', reason: 'Sweep: a correction waiting for its checker',
    }, null),
    'correction for Alice',
  );
  // Alice's C2C deposit: accepted by a merchant of its own (not the sweep's merchant member), paid with her screenshot.
  const c2cFinance = await createStaff(t.app, t.db, 'sweepc2cfin2', ['finance']);
  const c2cMerchant = await makeMerchant(t.app, t.db, 'sweepmerchant2', { float: '500', finance: [staffTokens.get('finance')!, c2cFinance] });
  const c2cRequest = await ok(c2cDeposit(t.app, alice.token, { amount: '50' }), 'C2C deposit of Alice');
  await sweepC2c({ db: t.db, now: () => new Date(nowMs), events: { publish: async () => {} } as unknown as EventBus, logger: t.app.log });
  await ok(merchantStep(t.app, c2cMerchant, c2cRequest.id, 'accept'), 'C2C acceptance');
  const c2cProof = await uploadProof(t.app, alice.token);
  await ok(call(t.app, 'POST', `/home/c2c/requests/${c2cRequest.id}/paid`, alice.token, { uploadId: c2cProof }), 'C2C paid');
  // Alice's VIP application in review (written directly: applying needs advanced verification, which Alice's submission above is still waiting for).
  const [vipApplication] = await t.db.query<{ id: bigint }>(
    `INSERT INTO vip_applications (user_id, level, status, submitted_at) VALUES ($1, 3, 'in_review', $2) RETURNING id`,
    [alice.userId, new Date(nowMs)],
  );
  const quote = await ok(call(t.app, 'POST', '/home/assets/swap/quote', alice.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '10' }), 'swap quote');
  const sessions = await ok(call(t.app, 'GET', '/home/user/sessions', alice.token), 'sessions');
  const messages = await ok(call(t.app, 'GET', '/home/user/messages', alice.token), 'messages');
  const unreadMessage = messages.items.find((item: { read: boolean }) => !item.read);
  if (!unreadMessage) throw new Error('setup: Alice has no unread system message');
  const sallyAccount = await ok(call(t.app, 'GET', '/home/admin/me', sally), 'Sally');
  const sallySessions = await ok(call(t.app, 'GET', '/home/admin/me/sessions', sally), 'Sally’s sessions');
  const contentMember = await ok(call(t.app, 'GET', '/home/admin/me', staffTokens.get('content')!), 'content member');

  objects = {
    user: alice.userId,
    session: sessions.items[0].id,
    verificationUpload: aliceUpload,
    submission: submission.submissionId,
    depositProof,
    deposit: deposit.id,
    address,
    withdrawal: withdrawal.id,
    card: card.id,
    ad: ad.id,
    p2pOrder: p2pOrder.id,
    chatText: chatText.id,
    chatImage: chatImage.id,
    chatImageUnappealed: chatImageUnappealed.id,
    chatUpload,
    optionOrder: optionOrder.id,
    position: position.id,
    limitOrder: limitOrder.id,
    earnSubscription: earnSubscription.id,
    earnChange: earnChange.id,
    loan: loan.id,
    loanUpload,
    loanChange: loanChange.id,
    fundRequest: fundRequest.id,
    fundInvestment: fundInvestment.id,
    c2cRequest: c2cRequest.id,
    c2cProof,
    correction: correction.id,
    vipApplication: vipApplication!.id.toString(),
    quote: quote.quoteId,
    message: unreadMessage.id,
    staff: sallyAccount.id,
    staffSession: sallySessions.items[0].id,
  };
  own = { p2pOrder: malloryOrder.id, staffMember: contentMember.id };
  for (const [kind, id] of Object.entries(objects)) if (!/^[1-9]\d*$/.test(String(id)) || id === UNKNOWN_ID) throw new Error(`setup: no ${kind}`);
  baseline = await ownersState();
});
afterAll(() => t?.close());

describe('authorization sweep over the registered routes', () => {
  it('every registered route that takes an id has a case here, or is reviewed as naming nothing anyone owns', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
    // Every API route is a contract, so its inputs are known, and every contract is registered
    // (which also proves the route tree was read whole).
    const api = registered.filter((route) => route.split(' ')[1]!.startsWith('/home/'));
    expect(api.filter((route) => !contractByKey.has(route))).toEqual([]);
    expect([...contractByKey.keys()].filter((route) => !registered.includes(route))).toEqual([]);
    // Outside the API: reviewed, or without anything in the path that could carry an id.
    const others = registered.filter((route) => !api.includes(route) && !(route in NON_API_ROUTES));
    expect(others.filter((route) => /[:*]/.test(route)), 'routes outside the API with a path parameter').toEqual([]);
    const needCase = api.filter((route) => idFieldsOf(contractByKey.get(route)!).length > 0);
    const missing = needCase.filter((route) => !(route in CASES) && !(route in REVIEWED_NOT_OWNED));
    expect(missing, 'routes that take an id but have no case in the authorization sweep').toEqual([]);
    // No stale entries: each case and reviewed route is registered and takes an id.
    expect(Object.keys(CASES).filter((route) => !needCase.includes(route))).toEqual([]);
    expect(Object.keys(REVIEWED_NOT_OWNED).filter((route) => !needCase.includes(route))).toEqual([]);
  });

  it('each case puts one of Alice’s ids in every id input of its route', () => {
    const alicesIds = new Set(Object.values(objects));
    for (const [route, sweepCase] of Object.entries(CASES)) {
      const contract = contractByKey.get(route);
      if (!contract) continue; // reported by the test above
      const attempts = sweepCase.attempts(objects, own);
      const owned = idFieldsOf(contract).filter((field) => !sweepCase.publicIdFields?.includes(`${field.location}.${field.name}`));
      for (const field of owned) {
        const values = attempts.flatMap((attempt) => valuesOfField(contract.path, attempt, field));
        expect(
          values.some((value) => alicesIds.has(value)),
          `${route}: ${field.location}.${field.name}`,
        ).toBe(true);
      }
      // And the comparison requests name nothing of Alice's.
      for (const attempt of sweepCase.attempts(UNKNOWN, own)) {
        for (const field of owned) expect(valuesOfField(contract.path, attempt, field).filter((value) => alicesIds.has(value))).toEqual([]);
      }
    }
  });

  describe.each(idTaking.filter((contract) => routeKey(contract) in CASES).map((contract) => [routeKey(contract), contract] as const))('%s', (route, contract) => {
    const sweepCase = CASES[route]!;

    if (contract.caller === 'user') {
      it(`${sweepCase.attacker ?? 'mallory'} gets ${sweepCase.answer === 'scoped' ? 'only her own records' : USER_REFUSAL}, as for an id nobody has; every staff role gets 401; the owners' records unchanged`, async () => {
        const attacker = sweepCase.attacker === 'newcomer' ? newcomer : mallory;
        const withAlices = sweepCase.attempts(objects, own);
        const withUnknown = sweepCase.attempts(UNKNOWN, own);
        for (const [index, attempt] of withAlices.entries()) {
          const answer = await send(contract.method, attempt, attacker.token);
          const unknown = await send(contract.method, withUnknown[index]!, attacker.token);
          if (sweepCase.answer === 'scoped') {
            expect(answer, attempt.url).toMatchObject({ status: 200, code: 200 });
            expect(unknown, attempt.url).toMatchObject({ status: 200, code: 200 });
          } else {
            expect(answer, attempt.url).toMatchObject(refusal(USER_REFUSAL));
            expect(answer, `${attempt.url}: the same answer as for an id nobody has`).toEqual(unknown);
          }
          for (const [role, token] of staffTokens) {
            const staffAnswer = await send(contract.method, attempt, token);
            expect(staffAnswer, `${role} on ${attempt.url}`).toMatchObject(refusal('TOKEN_NOT_FOUND'));
            expect(staffAnswer).toEqual(await send(contract.method, withUnknown[index]!, token));
          }
        }
        expect(await ownersState()).toEqual(baseline);
      });
    }

    if (contract.caller === 'staff') {
      const allowed = contract.staffRoles?.length ? contract.staffRoles : staffRoles;
      const refused = staffRoles.filter((role) => !allowed.includes(role));
      it(`a user token gets 401 and ${refused.length ? refused.join(', ') : 'no role'} ${refused.length ? 'get' : 'gets'} PERMISSION_DENIED, as for an id nobody has; the owners' records unchanged`, async () => {
        const withAlices = sweepCase.attempts(objects, own);
        const withUnknown = sweepCase.attempts(UNKNOWN, own);
        for (const [index, attempt] of withAlices.entries()) {
          const asUser = await send(contract.method, attempt, mallory.token);
          expect(asUser, attempt.url).toMatchObject(refusal('TOKEN_NOT_FOUND'));
          expect(asUser).toEqual(await send(contract.method, withUnknown[index]!, mallory.token));
          for (const role of refused) {
            const answer = await send(contract.method, attempt, staffTokens.get(role)!);
            expect(answer, `${role} on ${attempt.url}`).toMatchObject(refusal('PERMISSION_DENIED'));
            expect(answer).toEqual(await send(contract.method, withUnknown[index]!, staffTokens.get(role)!));
          }
        }
        expect(await ownersState()).toEqual(baseline);
      });

      if (sweepCase.staffOwned) {
        it(`every other staff member (${allowed.join(', ')}) gets RECORD_NOT_FOUND, as for an id nobody has; Sally's unchanged`, async () => {
          const withUnknown = sweepCase.attempts(UNKNOWN, own);
          for (const [index, attempt] of sweepCase.attempts(objects, own).entries()) {
            for (const role of allowed) {
              const answer = await send(contract.method, attempt, staffTokens.get(role)!);
              expect(answer, `${role} on ${attempt.url}`).toMatchObject(refusal('RECORD_NOT_FOUND'));
              expect(answer).toEqual(await send(contract.method, withUnknown[index]!, staffTokens.get(role)!));
            }
          }
          expect(await ownersState()).toEqual(baseline);
        });
        return;
      }

      it(`${allowed.join(', ')}: not refused by role (owner-independent staff access)`, async () => {
        // Reads run on Alice's objects; a change runs on an id nobody has, so it reaches the
        // lookup (past the role check) and changes nothing.
        const attempts = contract.method === 'GET' ? sweepCase.attempts(objects, own) : sweepCase.attempts(UNKNOWN, own);
        for (const role of allowed) {
          for (const attempt of attempts) {
            const answer = await send(contract.method, attempt, staffTokens.get(role)!);
            if (contract.method === 'GET') expect(answer, `${role} on ${attempt.url}`).toMatchObject({ status: 200 });
            else expect(answer, `${role} on ${attempt.url}`).toMatchObject(refusal('RECORD_NOT_FOUND'));
          }
          const outsideUnknown = sweepCase.outsideRoleScope?.(UNKNOWN, own) ?? [];
          for (const [index, attempt] of (sweepCase.outsideRoleScope?.(objects, own) ?? []).entries()) {
            const answer = await send(contract.method, attempt, staffTokens.get(role)!);
            expect(answer, `${role} on ${attempt.url}`).toMatchObject(refusal('RECORD_NOT_FOUND'));
            expect(answer).toEqual(await send(contract.method, outsideUnknown[index]!, staffTokens.get(role)!));
          }
        }
        expect(await ownersState()).toEqual(baseline);
      });
    }
  });

  describe('reviewed: takes an id, but of nothing only its owner may use', () => {
    it.each(Object.entries(REVIEWED_NOT_OWNED))('%s — %s', (route) => {
      expect(idTaking.map(routeKey)).toContain(route);
    });
  });

  describe('skipped: outside the API', () => {
    it.each(Object.entries(NON_API_ROUTES))('%s — %s', (route) => {
      expect(registeredRoutes(t.app.printRoutes({ commonPrefix: false }))).toContain(route);
    });
  });

  describe('skipped: takes no id', () => {
    it.each(withoutIds.map((contract) => [routeKey(contract), whySkipped(contract)]))('%s — %s', (route) => {
      expect(idFieldsOf(contractByKey.get(route)!)).toEqual([]);
    });
  });
});
