import {
  listAuditContract,
  listNotificationsContract,
  listUsersContract,
  setUserStatusContract,
  staffLoginContract,
  staffLogoutContract,
  staffMeContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { toPublicStaff } from '../../persistence/staff.repository.ts';
import { endSession } from '../../use-cases/auth/resolve-session.ts';
import { loginStaff } from '../../use-cases/admin/staff-auth.ts';
import { listNotifications } from '../../use-cases/admin/list-notifications.ts';
import { listAudit, listUsers, setUserStatus, userForStaff } from '../../use-cases/admin/manage-users.ts';

export const adminRoutes = [
  handler(staffLoginContract, async ({ body, request, deps }) => {
    const { staff, session } = await loginStaff(deps, {
      ...body,
      clientIp: request.ip,
      userAgent: request.headers['user-agent'],
      requestId: request.id,
    });
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), staff: toPublicStaff(staff) };
  }),
  handler(staffLogoutContract, async ({ staffSession, deps }) => {
    await endSession(deps, 'staff_sessions', staffSession.tokenHash);
    return null;
  }),
  handler(staffMeContract, async ({ staffSession }) => toPublicStaff(staffSession.staff)),
  handler(listUsersContract, ({ query, staffSession, deps }) => listUsers(deps, { ...query, roles: staffSession.staff.roles })),
  handler(setUserStatusContract, async ({ params, body, staffSession, request, deps }) =>
    userForStaff(
      await setUserStatus(deps, {
        staff: staffSession.staff,
        userId: BigInt(params.userId),
        status: body.status,
        reason: body.reason,
        clientIp: request.ip,
        requestId: request.id,
      }),
      staffSession.staff.roles,
    ),
  ),
  handler(listAuditContract, ({ query, deps }) => listAudit(deps, query)),
  handler(listNotificationsContract, ({ staffSession, query, request, deps }) =>
    listNotifications(deps, staffSession, { ...query, requestId: request.id }),
  ),
];
