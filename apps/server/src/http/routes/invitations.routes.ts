import { getInvitationSummaryContract, listInviteesContract, listInviteRewardsContract } from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import { invitationSummary, listInvitees, listInviteRewards } from '../../use-cases/invitations/invitation-views.ts';

/**
 * Invitations (issue 20, ADR 0045): reads only. Rewards are not a route: the daily job credits them
 * (use-cases/invitations/invite-rewards.ts); the link is recorded at registration.
 */
export const invitationRoutes: RouteHandler[] = [
  handler(getInvitationSummaryContract, ({ session, deps }) => invitationSummary(deps, session.user.id)),
  handler(listInviteesContract, ({ session, query, deps }) => listInvitees(deps, session.user.id, query)),
  handler(listInviteRewardsContract, ({ session, query, deps }) => listInviteRewards(deps, session.user.id, query)),
];
