import {
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
import { cancelOrder, markOrderPaid, releaseOrder } from '../../use-cases/p2p/order-steps.ts';
import { findOrderView, listAds, listOrdersOf } from '../../use-cases/p2p/p2p-views.ts';
import { placeOrder } from '../../use-cases/p2p/place-order.ts';

/** Fiat P2P (issue 6): sell ads with escrow, and the orders against them. */
export const p2pRoutes = [
  handler(listP2pAdsContract, ({ session, query, deps }) =>
    listAds(deps.db, { viewerId: session.user.id, fiat: query.fiat, mine: query.mine === 'true', page: query.page, pageSize: query.pageSize }),
  ),
  handler(postP2pAdContract, ({ session, body, idempotencyKey, deps }) => postAd(deps, session.user, { ...body, requestKey: idempotencyKey })),
  handler(editP2pAdContract, ({ session, params, body, deps }) => editAd(deps, session.user.id, BigInt(params.adId), body)),
  handler(closeP2pAdContract, ({ session, params, deps }) => closeAd(deps, session.user.id, BigInt(params.adId))),
  handler(placeP2pOrderContract, ({ session, body, deps }) => placeOrder(deps, session.user, { ...body, adId: BigInt(body.adId) })),
  handler(listP2pOrdersContract, ({ session, query, deps }) => listOrdersOf(deps.db, { userId: session.user.id, ...query })),
  handler(getP2pOrderContract, ({ session, params, deps }) => findOrderView(deps.db, BigInt(params.orderId), session.user.id)),
  handler(markP2pOrderPaidContract, ({ session, params, deps }) => markOrderPaid(deps, session.user, BigInt(params.orderId))),
  handler(cancelP2pOrderContract, ({ session, params, deps }) => cancelOrder(deps, session.user, BigInt(params.orderId))),
  handler(releaseP2pOrderContract, ({ session, params, body, deps }) => releaseOrder(deps, session.user, BigInt(params.orderId), body.paymentPassword)),
];
