import {
  appealP2pOrderContract,
  getP2pAppealContract,
  getP2pChatImageContract,
  getStaffChatImageContract,
  listP2pAppealsContract,
  listP2pChatContract,
  resolveP2pAppealContract,
  sendP2pChatContract,
  withdrawP2pChatContract,
  cancelP2pOrderContract,
  closeP2pAdContract,
  editP2pAdContract,
  getP2pOrderContract,
  listP2pAdsContract,
  listP2pOrdersContract,
  markP2pOrderPaidContract,
  placeP2pOrderContract,
  postP2pAdContract,
  releaseP2pOrderContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { closeAd, editAd, postAd } from '../../use-cases/p2p/manage-ads.ts';
import { listChat, readChatImage, sendChat, withdrawChat } from '../../use-cases/p2p/order-chat.ts';
import { appealOrder, cancelOrder, markOrderPaid, releaseOrder } from '../../use-cases/p2p/order-steps.ts';
import { getAppeal, listAppeals, readChatImageForStaff, resolveAppeal } from '../../use-cases/p2p/resolve-appeal.ts';
import { findOrderView, listAds, listOrdersOf } from '../../use-cases/p2p/p2p-views.ts';
import { placeOrder } from '../../use-cases/p2p/place-order.ts';

/** Fiat P2P (issue 6): sell ads with escrow, and the orders against them. */
export const p2pRoutes = [
  handler(listP2pAdsContract, ({ session, query, deps }) =>
    listAds(deps.db, { viewerId: session.user.id, side: query.side, fiat: query.fiat, mine: query.mine === 'true', page: query.page, pageSize: query.pageSize }),
  ),
  handler(postP2pAdContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    postAd(deps, session.user, { ...body, requestKey: idempotencyKey }, idempotency),
  ),
  handler(editP2pAdContract, ({ session, params, body, idempotency, deps }) => editAd(deps, session.user.id, BigInt(params.adId), body, idempotency)),
  handler(closeP2pAdContract, ({ session, params, idempotency, deps }) => closeAd(deps, session.user.id, BigInt(params.adId), idempotency)),
  handler(placeP2pOrderContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    placeOrder(deps, session.user, { ...body, adId: BigInt(body.adId), requestKey: idempotencyKey }, idempotency),
  ),
  handler(listP2pOrdersContract, ({ session, query, deps }) => listOrdersOf(deps.db, { userId: session.user.id, ...query }, deps.config.VIP_LEVELS)),
  handler(getP2pOrderContract, ({ session, params, deps }) => findOrderView(deps.db, BigInt(params.orderId), session.user.id, deps.config.VIP_LEVELS)),
  handler(markP2pOrderPaidContract, ({ session, params, idempotency, deps }) => markOrderPaid(deps, session.user, BigInt(params.orderId), idempotency)),
  handler(cancelP2pOrderContract, ({ session, params, idempotency, deps }) => cancelOrder(deps, session.user, BigInt(params.orderId), idempotency)),
  handler(releaseP2pOrderContract, ({ session, params, body, idempotency, deps }) =>
    releaseOrder(deps, session.user, BigInt(params.orderId), body.paymentPassword, idempotency),
  ),
  handler(appealP2pOrderContract, ({ session, params, body, idempotency, deps }) =>
    appealOrder(deps, session.user, BigInt(params.orderId), body.reason, idempotency),
  ),
  handler(listP2pChatContract, ({ session, params, deps }) => listChat(deps, session.user.id, BigInt(params.orderId))),
  handler(sendP2pChatContract, ({ session, params, body, deps }) => sendChat(deps, session.user.id, BigInt(params.orderId), body)),
  handler(withdrawP2pChatContract, ({ session, params, deps }) => withdrawChat(deps, session.user.id, BigInt(params.orderId), BigInt(params.messageId))),
  handler(getP2pChatImageContract, async ({ session, params, deps }) => {
    const { bytes, mediaType } = await readChatImage(deps, session.user.id, BigInt(params.orderId), BigInt(params.messageId));
    return { bytes, mediaType };
  }),
];

/** Support staff: P2P appeals (roles admin and support, from the contracts). */
export const p2pAdminRoutes = [
  handler(listP2pAppealsContract, ({ query, deps }) => listAppeals(deps, query)),
  handler(getP2pAppealContract, ({ params, deps }) => getAppeal(deps, BigInt(params.orderId))),
  handler(resolveP2pAppealContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    resolveAppeal(deps, staffSession, { orderId: BigInt(params.orderId), ...body, requestId: request.id }, idempotency),
  ),
  handler(getStaffChatImageContract, async ({ staffSession, params, request, deps }) => {
    const { bytes, mediaType } = await readChatImageForStaff(deps, staffSession, BigInt(params.messageId), request.id);
    return { bytes, mediaType };
  }),
];
