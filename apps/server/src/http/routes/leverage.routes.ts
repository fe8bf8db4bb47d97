import {
  acceptLeverageDisclosureContract,
  changePositionMarginContract,
  closePositionContract,
  getLeverageOverviewContract,
  getPositionContract,
  listPositionsContract,
  openPositionContract,
  setPositionTriggersContract,
} from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import { changePositionMargin, closePosition, setPositionTriggers } from '../../use-cases/leverage/manage-position.ts';
import { acceptLeverageDisclosure, leverageOverview, openPosition } from '../../use-cases/leverage/open-position.ts';
import { findPosition, listPositions } from '../../use-cases/leverage/position-views.ts';

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
];

/**
 * What staff see of positions: read only. No staff call sets a price, a mark price, a trigger, a
 * liquidation or a PnL (test/integration/options/no-staff-outcome-routes.test.ts).
 */
export const leverageAdminRoutes: RouteHandler[] = [];
