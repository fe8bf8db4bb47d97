import {
  acceptLeverageDisclosureContract,
  cancelLimitOrderContract,
  listLimitOrdersContract,
  placeLimitOrderContract,
  changePositionMarginContract,
  closePositionContract,
  getLeverageExposureContract,
  getLeverageInsuranceFundContract,
  getLeverageOverviewContract,
  getPositionContract,
  getStaffPositionContract,
  listPositionsContract,
  listStaffPositionsContract,
  openPositionContract,
  setPositionTriggersContract,
} from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import { changePositionMargin, closePosition, setPositionTriggers } from '../../use-cases/leverage/manage-position.ts';
import { acceptLeverageDisclosure, leverageOverview, openPosition } from '../../use-cases/leverage/open-position.ts';
import { cancelLimitOrder, listLimitOrders, placeLimitOrder } from '../../use-cases/leverage/limit-orders.ts';
import { findPosition, listPositions } from '../../use-cases/leverage/position-views.ts';
import { findStaffPosition, leverageExposure, leverageInsuranceFund, listStaffPositions } from '../../use-cases/leverage/staff-views.ts';

/**
 * Leveraged and futures positions (issue 16, ADR 0034). Triggers, liquidation, funding and
 * interest are not routes: the engine does them from recorded ticks.
 */
export const leverageRoutes = [
  handler(getLeverageOverviewContract, ({ session, deps }) => leverageOverview(deps, session.user.id)),
  handler(acceptLeverageDisclosureContract, ({ session, body, deps }) => acceptLeverageDisclosure(deps, session.user.id, body.version)),
  handler(openPositionContract, ({ session, body, idempotency, deps }) => openPosition(deps, session.user.id, body, idempotency)),
  handler(closePositionContract, ({ session, params, body, idempotency, deps }) =>
    closePosition(deps, session.user.id, BigInt(params.positionId), body, idempotency),
  ),
  handler(changePositionMarginContract, ({ session, params, body, idempotency, deps }) =>
    changePositionMargin(deps, session.user.id, BigInt(params.positionId), body, idempotency),
  ),
  handler(setPositionTriggersContract, ({ session, params, body, deps }) => setPositionTriggers(deps, session.user.id, BigInt(params.positionId), body)),
  handler(listPositionsContract, ({ session, query, deps }) => listPositions(deps.db, { userId: session.user.id, ...query })),
  handler(getPositionContract, ({ session, params, deps }) => findPosition(deps.db, session.user.id, BigInt(params.positionId))),
  handler(placeLimitOrderContract, ({ session, body, idempotency, deps }) => placeLimitOrder(deps, session.user.id, body, idempotency)),
  handler(cancelLimitOrderContract, ({ session, params, idempotency, deps }) => cancelLimitOrder(deps, session.user.id, BigInt(params.orderId), idempotency)),
  handler(listLimitOrdersContract, ({ session, query, deps }) => listLimitOrders(deps.db, { userId: session.user.id, ...query })),
];

/**
 * What staff see of positions: read only. No staff call sets a price, a mark price, a trigger, a
 * liquidation or a PnL (test/integration/options/no-staff-outcome-routes.test.ts).
 */
export const leverageAdminRoutes: RouteHandler[] = [
  handler(listStaffPositionsContract, ({ query, deps }) =>
    listStaffPositions(deps.db, {
      status: query.status,
      product: query.product,
      symbol: query.symbol,
      userId: query.userId ? BigInt(query.userId) : undefined,
      page: query.page,
      pageSize: query.pageSize,
    }),
  ),
  handler(getStaffPositionContract, ({ params, deps }) => findStaffPosition(deps.db, BigInt(params.positionId))),
  handler(getLeverageExposureContract, ({ deps }) => leverageExposure(deps.db, deps.config)),
  handler(getLeverageInsuranceFundContract, ({ query, deps }) => leverageInsuranceFund(deps.db, query)),
];
