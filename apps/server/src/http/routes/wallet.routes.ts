import {
  addBankCardContract,
  addWithdrawalAddressContract,
  cancelWithdrawalContract,
  completeWithdrawalContract,
  createDepositContract,
  createWithdrawalContract,
  decideDepositContract,
  decideWithdrawalContract,
  depositAddressContract,
  failWithdrawalContract,
  getDepositContract,
  getDepositProofContract,
  getStaffDepositContract,
  getStaffWithdrawalContract,
  getTwoPersonRuleContract,
  getWithdrawalContract,
  listBankCardsContract,
  listDepositsContract,
  listStaffDepositsContract,
  listStaffWithdrawalsContract,
  listWithdrawalAddressesContract,
  listWithdrawalsContract,
  removeBankCardContract,
  removeWithdrawalAddressContract,
  AppError,
  walletOverviewContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { depositView, findDepositOfUser, listDepositsOfUser } from '../../persistence/deposits.repository.ts';
import { findWithdrawalView, listWithdrawalsOfUser, withdrawalView } from '../../persistence/withdrawals.repository.ts';
import { publishedTwoPersonRule } from '../../use-cases/admin/two-person-rule.ts';
import { addBankCard, listBankCards, removeBankCard } from '../../use-cases/wallet/bank-cards.ts';
import { createDeposit } from '../../use-cases/wallet/create-deposit.ts';
import { createWithdrawal } from '../../use-cases/wallet/create-withdrawal.ts';
import { depositAddressFor, requireChannel } from '../../use-cases/wallet/deposit-address.ts';
import { decideDeposit, getStaffDeposit, listStaffDeposits, readDepositProof } from '../../use-cases/wallet/review-deposit.ts';
import {
  cancelWithdrawal,
  completeWithdrawal,
  decideWithdrawal,
  failWithdrawal,
  getStaffWithdrawal,
  listStaffWithdrawals,
} from '../../use-cases/wallet/review-withdrawal.ts';
import { addWithdrawalAddress, listWithdrawalAddresses, removeWithdrawalAddress } from '../../use-cases/wallet/withdrawal-addresses.ts';
import { walletOverview } from '../../use-cases/wallet/wallet-overview.ts';

/** The user's wallet: deposits, the address book, withdrawals and bank cards (issue 5). */
export const walletRoutes = [
  handler(walletOverviewContract, ({ session, deps }) => walletOverview(deps, session.user)),
  handler(depositAddressContract, async ({ session, query, deps }) => {
    const channel = requireChannel(deps, query.channel);
    const address = await depositAddressFor(deps, session.user.id, channel.network);
    return { channel: channel.id, ...address };
  }),
  handler(createDepositContract, ({ session, body, idempotency, deps }) => createDeposit(deps, { userId: session.user.id, ...body }, idempotency)),
  handler(listDepositsContract, ({ session, query, deps }) => listDepositsOfUser(deps.db, { userId: session.user.id, ...query })),
  handler(getDepositContract, async ({ session, params, deps }) => {
    // Another user's deposit is "not found", never "forbidden": its existence is not told.
    const row = await findDepositOfUser(deps.db, BigInt(params.depositId), session.user.id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return depositView(row);
  }),
  handler(listWithdrawalAddressesContract, ({ session, deps }) => listWithdrawalAddresses(deps, session.user.id)),
  handler(addWithdrawalAddressContract, ({ session, body, deps }) => addWithdrawalAddress(deps, session.user.id, body)),
  handler(removeWithdrawalAddressContract, ({ session, params, deps }) => removeWithdrawalAddress(deps, session.user.id, BigInt(params.addressId))),
  handler(createWithdrawalContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    createWithdrawal(deps, { user: session.user, ...body, addressId: BigInt(body.addressId), requestKey: idempotencyKey }, idempotency),
  ),
  handler(listWithdrawalsContract, ({ session, query, deps }) => listWithdrawalsOfUser(deps.db, { userId: session.user.id, ...query })),
  handler(getWithdrawalContract, async ({ session, params, deps }) => {
    const row = await findWithdrawalView(deps.db, BigInt(params.withdrawalId), session.user.id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return withdrawalView(row);
  }),
  handler(cancelWithdrawalContract, ({ session, params, request, idempotency, deps }) =>
    cancelWithdrawal(deps, { userId: session.user.id, withdrawalId: BigInt(params.withdrawalId), requestId: request.id }, idempotency),
  ),
  handler(listBankCardsContract, ({ session, deps }) => listBankCards(deps, session.user.id)),
  handler(addBankCardContract, ({ session, body, deps }) => addBankCard(deps, session.user.id, body)),
  handler(removeBankCardContract, ({ session, params, deps }) => removeBankCard(deps, session.user.id, BigInt(params.cardId))),
];

/** The finance back-office: deposit and withdrawal queues (roles admin and finance, from the contracts). */
export const walletAdminRoutes = [
  handler(listStaffDepositsContract, ({ query, deps }) => listStaffDeposits(deps, query)),
  handler(getStaffDepositContract, ({ params, deps }) => getStaffDeposit(deps, BigInt(params.depositId))),
  handler(getDepositProofContract, async ({ staffSession, params, request, deps }) => {
    const { bytes, mediaType } = await readDepositProof(deps, staffSession, BigInt(params.depositId), request.id);
    return { bytes, mediaType };
  }),
  handler(decideDepositContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    decideDeposit(deps, staffSession, { depositId: BigInt(params.depositId), ...body, requestId: request.id }, idempotency),
  ),
  handler(listStaffWithdrawalsContract, ({ query, deps }) => listStaffWithdrawals(deps, query)),
  handler(getStaffWithdrawalContract, ({ params, deps }) => getStaffWithdrawal(deps, BigInt(params.withdrawalId))),
  handler(decideWithdrawalContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    decideWithdrawal(deps, staffSession, { withdrawalId: BigInt(params.withdrawalId), ...body, requestId: request.id }, idempotency),
  ),
  handler(completeWithdrawalContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    completeWithdrawal(deps, staffSession, { withdrawalId: BigInt(params.withdrawalId), txHash: body.txHash, requestId: request.id }, idempotency),
  ),
  handler(failWithdrawalContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    failWithdrawal(deps, staffSession, { withdrawalId: BigInt(params.withdrawalId), reason: body.reason, requestId: request.id }, idempotency),
  ),
  // The rule is shared by the finance queues and the appeals (ADR 0022); it is listed here with the finance routes.
  handler(getTwoPersonRuleContract, async ({ deps }) => publishedTwoPersonRule(deps.config)),
];
