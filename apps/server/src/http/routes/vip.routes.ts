import { applyForVipContract, decideVipApplicationContract, listVipApplicationsContract, myVipContract, vipLevelsContract } from '@keel/contracts';
import { handler } from '../route.ts';
import { applyForVip, decideVipApplication, listVipApplications, myVip, vipTableView } from '../../use-cases/vip/vip-levels.ts';

export const vipRoutes = [
  handler(vipLevelsContract, async ({ deps }) => ({ levels: vipTableView(deps.config.VIP_LEVELS) })),
  handler(myVipContract, ({ session, deps }) => myVip(deps, session.user.id)),
  handler(applyForVipContract, ({ session, body, deps }) => applyForVip(deps, session.user.id, body)),
  handler(listVipApplicationsContract, ({ query, deps }) => listVipApplications(deps, query)),
  handler(decideVipApplicationContract, ({ staffSession, params, body, request, deps }) =>
    decideVipApplication(deps, staffSession, { applicationId: BigInt(params.applicationId), ...body, requestId: request.id }),
  ),
];
