import { loginContract, logoutContract, registerContract, resetPasswordContract, sendCodeContract } from '@keel/contracts';
import { handler } from '../route.ts';
import { registerUser } from '../../use-cases/auth/register-user.ts';
import { loginUser } from '../../use-cases/auth/login-user.ts';
import { resetPassword } from '../../use-cases/auth/reset-password.ts';
import { sendVerificationCode } from '../../use-cases/auth/send-verification-code.ts';
import { endSession } from '../../use-cases/auth/resolve-session.ts';
import { announceSessionsEnded } from '../../realtime/publish.ts';
import { toPublicUser, type UserRow } from '../../persistence/users.repository.ts';
import type { NewSession } from '../../persistence/sessions.repository.ts';

function sessionAnswer({ user, session }: { user: UserRow; session: NewSession }) {
  return {
    token: session.token,
    userId: user.id.toString(),
    expiresAt: session.expiresAt.toISOString(),
    user: toPublicUser(user),
  };
}

export const authRoutes = [
  handler(registerContract, async ({ body, request, deps }) =>
    sessionAnswer(
      await registerUser(deps, { ...body, clientIp: request.ip, userAgent: request.headers['user-agent'] }),
    ),
  ),
  handler(loginContract, async ({ body, request, deps }) =>
    sessionAnswer(await loginUser(deps, { ...body, clientIp: request.ip, userAgent: request.headers['user-agent'] })),
  ),
  handler(sendCodeContract, ({ body, request, deps }) => sendVerificationCode(deps, { ...body, clientIp: request.ip })),
  handler(resetPasswordContract, async ({ body, deps }) => {
    await resetPassword(deps, body);
    return null;
  }),
  handler(logoutContract, async ({ session, deps }) => {
    await endSession(deps, 'sessions', session.tokenHash);
    await announceSessionsEnded(deps, session.user.id);
    return null;
  }),
];
