import { bindWalletContract, getWalletBindingContract, unbindWalletContract, walletLoginContract, walletNonceContract } from '@keel/contracts';
import { handler } from '../route.ts';
import { toPublicUser } from '../../persistence/users.repository.ts';
import { bindWallet, getWalletBinding, issueWalletNonce, loginWithWallet, unbindWallet } from '../../use-cases/wallet-connect/wallet-connect.ts';

/** Wallet connect by a signed message (issue 21, ADR 0047). */
export const walletConnectRoutes = [
  handler(walletNonceContract, ({ body, deps }) => issueWalletNonce(deps, body)),
  handler(walletLoginContract, async ({ body, request, deps }) => {
    const { user, session } = await loginWithWallet(deps, { ...body, clientIp: request.ip, userAgent: request.headers['user-agent'] });
    return { token: session.token, userId: user.id.toString(), expiresAt: session.expiresAt.toISOString(), user: toPublicUser(user) };
  }),
  handler(getWalletBindingContract, ({ session, deps }) => getWalletBinding(deps, session.user.id)),
  handler(bindWalletContract, ({ session, body, deps }) => bindWallet(deps, session.user, body)),
  handler(unbindWalletContract, ({ session, body, deps }) => unbindWallet(deps, session.user, body)),
];
