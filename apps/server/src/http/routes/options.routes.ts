import {
  acceptOptionsDisclosureContract,
  getOptionOrderContract,
  getOptionsHouseContract,
  getOptionsOverviewContract,
  listOptionOrdersContract,
  listStaffOptionOrdersContract,
  placeOptionOrderContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { findOptionOrder, listOptionOrders, listStaffOptionOrders } from '../../use-cases/options/option-views.ts';
import { optionsHouse } from '../../use-cases/options/options-house.ts';
import { acceptOptionsDisclosure, optionsOverview, placeOptionOrder } from '../../use-cases/options/place-option-order.ts';

/** Short-cycle contracts (issue 7, ADR 0017). Settlement is not a route: the settler does it from recorded ticks. */
export const optionsRoutes = [
  handler(getOptionsOverviewContract, ({ session, deps }) => optionsOverview(deps, session.user.id)),
  handler(acceptOptionsDisclosureContract, ({ session, body, deps }) => acceptOptionsDisclosure(deps, session.user.id, body.version)),
  handler(placeOptionOrderContract, ({ session, body, idempotency, deps }) => placeOptionOrder(deps, session.user.id, body, idempotency)),
  handler(listOptionOrdersContract, ({ session, query, deps }) => listOptionOrders(deps.db, { userId: session.user.id, ...query })),
  handler(getOptionOrderContract, ({ session, params, deps }) => findOptionOrder(deps.db, session.user.id, BigInt(params.orderId))),
];

/** What staff see of contracts: read only. No staff call sets or changes a price, a tick or a result. */
export const optionsAdminRoutes = [
  handler(getOptionsHouseContract, ({ deps }) => optionsHouse(deps.db, deps.now().getTime())),
  handler(listStaffOptionOrdersContract, ({ query, deps }) =>
    listStaffOptionOrders(deps.db, { status: query.status, userId: query.userId ? BigInt(query.userId) : undefined, page: query.page, pageSize: query.pageSize }),
  ),
];
