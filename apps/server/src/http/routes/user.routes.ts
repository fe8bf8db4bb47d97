import {
  listMessagesContract,
  markMessagesReadContract,
  meContract,
  serviceUrlContract,
  setLanguageContract,
  siteContract,
  unreadContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { toPublicUser } from '../../persistence/users.repository.ts';
import { listSystemMessages, markSystemMessagesRead } from '../../use-cases/user/system-messages.ts';
import { hasUnreadMessages, setUserLanguage } from '../../use-cases/user/user-queries.ts';

export const userRoutes = [
  handler(unreadContract, ({ session, deps }) => hasUnreadMessages(deps, session.user.id)),
  handler(meContract, async ({ session }) => toPublicUser(session.user)),
  handler(setLanguageContract, async ({ session, body, deps }) =>
    toPublicUser(await setUserLanguage(deps, session.user.id, body.language)),
  ),
  // Public (no token): the floating button opens it from the login page too.
  handler(serviceUrlContract, async ({ query, deps }) => (query.lang && deps.config.SERVICE_URL_BY_LANGUAGE[query.lang]) || deps.config.SERVICE_URL),
  // Public too: every page of both apps, the login pages included, says whether this is a demo (ADR 0041).
  handler(siteContract, async ({ deps }) => ({ demo: deps.config.KEEL_DEMO })),
  handler(listMessagesContract, ({ session, query, deps }) => listSystemMessages(deps, session.user.id, query)),
  handler(markMessagesReadContract, ({ session, body, deps }) => markSystemMessagesRead(deps, session.user.id, BigInt(body.upToId))),
];
