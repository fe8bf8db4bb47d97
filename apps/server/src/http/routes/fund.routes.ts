import {
  decideFundRequestContract,
  getFundInvestmentContract,
  getFundOverviewContract,
  getFundRequestContract,
  investFundContract,
  listFundInvestmentsContract,
  listFundPoolContract,
  listMyFundRequestsContract,
  listStaffFundRequestsContract,
  publishFundRequestContract,
} from '@keel/contracts';
import { findInvestment, findRequest, fundOverview, listInvestments, listMyRequests, listPool } from '../../use-cases/fund/fund-views.ts';
import { investInFundRequest } from '../../use-cases/fund/invest.ts';
import { decideFundRequest, listStaffFundRequests, publishFundRequest } from '../../use-cases/fund/publish-request.ts';
import { handler, type RouteHandler } from '../route.ts';

/**
 * The fund section (issue 18, ADR 0037). Refunds at a window's end, tranche releases and the
 * settlement at term are not routes: the fund job (`startFundSweeps`) runs them.
 */
export const fundRoutes: RouteHandler[] = [
  handler(getFundOverviewContract, ({ session, deps }) => fundOverview(deps, session.user.id)),
  handler(publishFundRequestContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    publishFundRequest(deps, { user: session.user, ...body, requestKey: idempotencyKey }, idempotency),
  ),
  handler(listFundPoolContract, ({ session, query, deps }) => listPool(deps, { viewerId: session.user.id, ...query })),
  handler(listMyFundRequestsContract, ({ session, query, deps }) => listMyRequests(deps, { userId: session.user.id, ...query })),
  handler(getFundRequestContract, ({ session, params, deps }) => findRequest(deps, session.user.id, BigInt(params.requestId))),
  handler(investFundContract, ({ session, params, body, idempotencyKey, idempotency, deps }) =>
    investInFundRequest(deps, { user: session.user, requestId: BigInt(params.requestId), ...body, requestKey: idempotencyKey }, idempotency),
  ),
  handler(listFundInvestmentsContract, ({ session, query, deps }) => listInvestments(deps, { userId: session.user.id, ...query })),
  handler(getFundInvestmentContract, ({ session, params, deps }) => findInvestment(deps, session.user.id, BigInt(params.investmentId))),
];

/** Compliance review of funding requests: approve (into the pool) or reject with a reason. */
export const fundReviewRoutes: RouteHandler[] = [
  handler(listStaffFundRequestsContract, ({ query, deps }) => listStaffFundRequests(deps, query)),
  handler(decideFundRequestContract, ({ staffSession, params, body, request, deps }) =>
    decideFundRequest(deps, staffSession, { requestId: BigInt(params.requestId), ...body, auditRequestId: request.id }),
  ),
];
