import {
  acknowledgeEarnTermsContract,
  decideEarnProductChangeContract,
  listStaffEarnProductsContract,
  proposeEarnProductChangeContract,
  getEarnOverviewContract,
  getEarnSubscriptionContract,
  listEarnSubscriptionsContract,
  redeemEarnSubscriptionContract,
  subscribeEarnContract,
} from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import { earnOverview, findSubscription, listSubscriptions } from '../../use-cases/earn/earn-views.ts';
import { acknowledgeEarnTerms, redeemEarnSubscription, subscribeEarn } from '../../use-cases/earn/subscribe.ts';
import { decideEarnProductChange, listStaffEarnProducts, proposeEarnProductChange } from '../../use-cases/earn/staff-products.ts';

/**
 * Earn: lock-up mining and financial products (issue 17, ADR 0035). Interest and maturity are not
 * routes: the payout job pays them at each product's payout time.
 */
export const earnRoutes: RouteHandler[] = [
  handler(getEarnOverviewContract, ({ session, query, deps }) => earnOverview(deps, session.user.id, query.kind)),
  handler(acknowledgeEarnTermsContract, ({ session, body, deps }) => acknowledgeEarnTerms(deps, session.user.id, body.version)),
  handler(subscribeEarnContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    subscribeEarn(deps, { user: session.user, ...body, productId: BigInt(body.productId), requestKey: idempotencyKey }, idempotency),
  ),
  handler(listEarnSubscriptionsContract, ({ session, query, deps }) => listSubscriptions(deps, { userId: session.user.id, ...query })),
  handler(getEarnSubscriptionContract, ({ session, params, deps }) => findSubscription(deps, session.user.id, BigInt(params.subscriptionId))),
  handler(redeemEarnSubscriptionContract, ({ session, params, body, idempotency, deps }) =>
    redeemEarnSubscription(deps, { user: session.user, subscriptionId: BigInt(params.subscriptionId), paymentPassword: body.paymentPassword }, idempotency),
  ),
];

/** Staff: products proposed by one admin and approved by another (ADR 0035). No staff call pays, withholds or sets interest. */
export const earnAdminRoutes: RouteHandler[] = [
  handler(listStaffEarnProductsContract, ({ query, deps }) => listStaffEarnProducts(deps, query)),
  handler(proposeEarnProductChangeContract, ({ staffSession, body, deps }) => proposeEarnProductChange(deps, staffSession, body)),
  handler(decideEarnProductChangeContract, ({ staffSession, params, body, deps }) =>
    decideEarnProductChange(deps, staffSession, { changeId: BigInt(params.changeId), approve: body.approve, note: body.note }),
  ),
];
