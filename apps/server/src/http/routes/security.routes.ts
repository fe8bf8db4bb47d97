import {
  bindContactContract,
  changeLoginPasswordContract,
  disableTotpContract,
  enableTotpContract,
  startTotpSetupContract,
  endSessionContract,
  listSessionsContract,
  securityOverviewContract,
  sendContactCodeContract,
  setAntiPhishingCodeContract,
  setContactMethodsContract,
  setNicknameContract,
  setPaymentPasswordContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { toPublicUser } from '../../persistence/users.repository.ts';
import { setAntiPhishingCode } from '../../use-cases/user/anti-phishing.ts';
import { bindContact, sendContactCode } from '../../use-cases/user/bind-contact.ts';
import { changeLoginPassword } from '../../use-cases/user/change-login-password.ts';
import { endOwnSession, listSessions } from '../../use-cases/user/manage-sessions.ts';
import { securityOverview } from '../../use-cases/user/security-overview.ts';
import { setContactMethods } from '../../use-cases/user/set-contact-methods.ts';
import { setNickname } from '../../use-cases/user/set-nickname.ts';
import { setPaymentPassword } from '../../use-cases/user/set-payment-password.ts';
import { disableTotp, enableTotp, startTotpSetup } from '../../use-cases/user/two-step-login.ts';

export const securityRoutes = [
  handler(securityOverviewContract, async ({ session, deps }) => securityOverview(deps, session.user)),
  handler(setNicknameContract, async ({ session, body, deps }) => toPublicUser(await setNickname(deps, session.user.id, body.nickname))),
  handler(changeLoginPasswordContract, async ({ session, body, deps }) => {
    await changeLoginPassword(deps, session, body);
    return null;
  }),
  handler(setPaymentPasswordContract, async ({ session, body, deps }) => {
    await setPaymentPassword(deps, session.user, body);
    return null;
  }),
  handler(sendContactCodeContract, ({ session, body, request, deps }) => sendContactCode(deps, session.user, { ...body, clientIp: request.ip })),
  handler(bindContactContract, async ({ session, body, deps }) => toPublicUser(await bindContact(deps, session.user, body))),
  handler(setContactMethodsContract, async ({ session, body, deps }) => ({
    methods: await setContactMethods(deps, session.user.id, body.methods),
  })),
  handler(setAntiPhishingCodeContract, async ({ session, body, deps }) => {
    await setAntiPhishingCode(deps, session.user.id, body.code);
    return null;
  }),
  handler(startTotpSetupContract, ({ session, deps }) => startTotpSetup(deps, session.user)),
  handler(enableTotpContract, async ({ session, body, deps }) => {
    await enableTotp(deps, session.user, body.code);
    return null;
  }),
  handler(disableTotpContract, async ({ session, body, deps }) => {
    await disableTotp(deps, session.user, body);
    return null;
  }),
  handler(listSessionsContract, ({ session, deps }) => listSessions(deps, session)),
  handler(endSessionContract, async ({ session, params, deps }) => {
    await endOwnSession(deps, session, BigInt(params.sessionId));
    return null;
  }),
];
