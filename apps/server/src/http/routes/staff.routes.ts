import {
  createStaffContract,
  disableStaffContract,
  enableStaffContract,
  enableStaffTotpContract,
  endOwnStaffSessionContract,
  endStaffSessionContract,
  listOwnStaffSessionsContract,
  listStaffContract,
  listStaffSessionsContract,
  resetStaffPasswordContract,
  setOwnStaffPasswordContract,
  setStaffRolesContract,
  startStaffTotpContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import {
  createStaffAccount,
  endStaffSession,
  listStaff,
  listStaffSessions,
  resetStaffPassword,
  setStaffActive,
  setStaffRoles,
} from '../../use-cases/admin/manage-staff.ts';
import { enableStaffTotp, setOwnStaffPassword, startStaffTotp } from '../../use-cases/admin/staff-first-login.ts';

// Staff management (issue 13, ADR 0020): the admins' calls, then each member's own.
export const staffRoutes = [
  handler(listStaffContract, ({ query, deps }) => listStaff(deps, query)),
  handler(createStaffContract, ({ body, staffSession, request, deps }) =>
    createStaffAccount(deps, staffSession, { ...body, clientIp: request.ip, requestId: request.id }),
  ),
  handler(setStaffRolesContract, ({ params, body, staffSession, request, deps }) =>
    setStaffRoles(deps, staffSession, { staffId: BigInt(params.staffId), roles: body.roles, clientIp: request.ip, requestId: request.id }),
  ),
  handler(disableStaffContract, ({ params, staffSession, request, deps }) =>
    setStaffActive(deps, staffSession, { staffId: BigInt(params.staffId), active: false, clientIp: request.ip, requestId: request.id }),
  ),
  handler(enableStaffContract, ({ params, staffSession, request, deps }) =>
    setStaffActive(deps, staffSession, { staffId: BigInt(params.staffId), active: true, clientIp: request.ip, requestId: request.id }),
  ),
  handler(resetStaffPasswordContract, ({ params, staffSession, request, deps }) =>
    resetStaffPassword(deps, staffSession, { staffId: BigInt(params.staffId), clientIp: request.ip, requestId: request.id }),
  ),
  handler(listStaffSessionsContract, ({ params, staffSession, deps }) => listStaffSessions(deps, staffSession, BigInt(params.staffId))),
  handler(endStaffSessionContract, async ({ params, staffSession, request, deps }) => {
    await endStaffSession(deps, staffSession, {
      staffId: BigInt(params.staffId),
      sessionId: BigInt(params.sessionId),
      clientIp: request.ip,
      requestId: request.id,
    });
    return null;
  }),

  handler(setOwnStaffPasswordContract, async ({ body, staffSession, request, deps }) => {
    await setOwnStaffPassword(deps, staffSession, { ...body, clientIp: request.ip, requestId: request.id });
    return null;
  }),
  handler(startStaffTotpContract, ({ staffSession, deps }) => startStaffTotp(deps, staffSession)),
  handler(enableStaffTotpContract, async ({ body, staffSession, request, deps }) => {
    await enableStaffTotp(deps, staffSession, { code: body.code, clientIp: request.ip, requestId: request.id });
    return null;
  }),
  handler(listOwnStaffSessionsContract, ({ staffSession, deps }) => listStaffSessions(deps, staffSession, staffSession.staff.id)),
  handler(endOwnStaffSessionContract, async ({ params, staffSession, request, deps }) => {
    await endStaffSession(deps, staffSession, {
      staffId: staffSession.staff.id,
      sessionId: BigInt(params.sessionId),
      clientIp: request.ip,
      requestId: request.id,
    });
    return null;
  }),
];
