import {
  findTransferRecipientContract,
  listAccountsContract,
  listRecordsContract,
  listUserTransfersContract,
  transferBetweenAccountsContract,
  transferToUserContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { listUserBalances } from '../../use-cases/assets/account-balances.ts';
import { listRecords } from '../../use-cases/assets/list-records.ts';
import { transferBetweenAccounts } from '../../use-cases/assets/transfer-between-accounts.ts';
import { findTransferRecipient, listUserTransfers, transferToUser } from '../../use-cases/assets/transfer-to-user.ts';

export const assetsRoutes = [
  handler(listAccountsContract, async ({ session, deps }) => ({ accounts: await listUserBalances(deps.db, session.user.id) })),
  handler(transferBetweenAccountsContract, async ({ session, body, idempotencyKey, idempotency, deps }) => {
    const result = await transferBetweenAccounts(deps, { userId: session.user.id, ...body, requestKey: idempotencyKey }, idempotency);
    return { ...result, entryId: result.entryId.toString() };
  }),
  handler(listRecordsContract, ({ session, query, deps }) => listRecords(deps.db, { userId: session.user.id, ...query })),
  handler(findTransferRecipientContract, ({ session, query, deps }) => findTransferRecipient(deps, session.user, query.to)),
  handler(transferToUserContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    transferToUser(deps, { user: session.user, ...body, requestKey: idempotencyKey }, idempotency),
  ),
  handler(listUserTransfersContract, ({ session, query, deps }) => listUserTransfers(deps, session.user.id, query)),
];
