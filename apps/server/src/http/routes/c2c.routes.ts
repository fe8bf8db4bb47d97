import {
  acceptC2cOfferContract,
  appealC2cAsMerchantContract,
  appealC2cRequestContract,
  cancelC2cRequestContract,
  confirmC2cFiatReceivedContract,
  confirmC2cReceivedContract,
  createC2cDepositContract,
  createC2cWithdrawalContract,
  declineC2cOfferContract,
  getC2cBankDetailsContract,
  getC2cOptionsContract,
  getC2cProofImageContract,
  getC2cRequestContract,
  getMerchantProfileContract,
  listC2cAppealsContract,
  listC2cRequestsContract,
  listMerchantRequestsContract,
  listMerchantsContract,
  markC2cFiatSentContract,
  markC2cPaidContract,
  resolveC2cAppealContract,
  saveMerchantProfileContract,
} from '@keel/contracts';
import type { BankDetails } from '@keel/domain';
import { listC2cAppeals, resolveC2cAppeal } from '../../use-cases/c2c/c2c-appeals.ts';
import { getMerchantProfile, listMerchantRequests, listMerchants, merchantStep, readC2cProofForStaff, saveMerchantProfile } from '../../use-cases/c2c/c2c-merchant.ts';
import {
  appealC2cRequest,
  c2cOptions,
  cancelC2cRequest,
  confirmC2cReceived,
  createC2cRequest,
  getC2cRequest,
  listC2cRequests,
  markC2cPaid,
  savedBankDetails,
} from '../../use-cases/c2c/c2c-requests.ts';
import { handler, type RouteHandler } from '../route.ts';

/**
 * C2C through merchants (issue 19, ADR 0043). Offers, lapses and timeouts are not routes: the C2C
 * job (`startC2cSweeps`) runs them.
 */
export const c2cRoutes: RouteHandler[] = [
  handler(getC2cOptionsContract, ({ session, query, deps }) => c2cOptions(deps, session.user.id, query.kind)),
  handler(createC2cDepositContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    createC2cRequest(deps, session.user, 'deposit', { ...body, requestKey: idempotencyKey }, idempotency),
  ),
  handler(createC2cWithdrawalContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    createC2cRequest(deps, session.user, 'withdrawal', { ...body, bankDetails: body.bankDetails as BankDetails, requestKey: idempotencyKey }, idempotency),
  ),
  handler(listC2cRequestsContract, ({ session, query, deps }) => listC2cRequests(deps, session.user.id, query)),
  handler(getC2cRequestContract, ({ session, params, deps }) => getC2cRequest(deps, session.user.id, BigInt(params.requestId))),
  handler(markC2cPaidContract, ({ session, params, body, idempotency, deps }) =>
    markC2cPaid(deps, session.user, BigInt(params.requestId), BigInt(body.uploadId), idempotency),
  ),
  handler(confirmC2cReceivedContract, ({ session, params, body, idempotency, deps }) =>
    confirmC2cReceived(deps, session.user, BigInt(params.requestId), body.paymentPassword, idempotency),
  ),
  handler(cancelC2cRequestContract, ({ session, params, idempotency, deps }) => cancelC2cRequest(deps, session.user, BigInt(params.requestId), idempotency)),
  handler(appealC2cRequestContract, ({ session, params, body, idempotency, deps }) =>
    appealC2cRequest(deps, session.user, BigInt(params.requestId), body.reason, idempotency),
  ),
  handler(getC2cBankDetailsContract, ({ session, query, deps }) => savedBankDetails(deps, session.user.id, query.country)),
];

/** The merchant console, support's C2C appeals and finance's list of merchants (roles from the contracts). */
export const c2cAdminRoutes: RouteHandler[] = [
  handler(getMerchantProfileContract, ({ staffSession, deps }) => getMerchantProfile(deps, staffSession)),
  handler(saveMerchantProfileContract, ({ staffSession, body, request, deps }) => saveMerchantProfile(deps, staffSession, { ...body, requestId: request.id })),
  handler(listMerchantRequestsContract, ({ staffSession, query, deps }) => listMerchantRequests(deps, staffSession, query)),
  handler(acceptC2cOfferContract, ({ staffSession, params, request, idempotency, deps }) =>
    merchantStep(deps, staffSession, BigInt(params.requestId), { kind: 'accept' }, { requestId: request.id }, idempotency),
  ),
  handler(declineC2cOfferContract, ({ staffSession, params, request, idempotency, deps }) =>
    merchantStep(deps, staffSession, BigInt(params.requestId), { kind: 'decline' }, { requestId: request.id }, idempotency),
  ),
  handler(confirmC2cFiatReceivedContract, ({ staffSession, params, request, idempotency, deps }) =>
    merchantStep(deps, staffSession, BigInt(params.requestId), { kind: 'confirm' }, { requestId: request.id }, idempotency),
  ),
  handler(markC2cFiatSentContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    merchantStep(
      deps,
      staffSession,
      BigInt(params.requestId),
      { kind: 'mark_paid' },
      { requestId: request.id, extra: { paymentReference: (body as { paymentReference: string }).paymentReference } },
      idempotency,
    ),
  ),
  handler(appealC2cAsMerchantContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    merchantStep(
      deps,
      staffSession,
      BigInt(params.requestId),
      { kind: 'appeal', by: 'merchant' },
      { requestId: request.id, extra: { appealReason: (body as { reason: string }).reason } },
      idempotency,
    ),
  ),
  handler(getC2cProofImageContract, async ({ staffSession, params, request, deps }) => {
    const { bytes, mediaType } = await readC2cProofForStaff(deps, staffSession, BigInt(params.requestId), request.id);
    return { bytes, mediaType };
  }),
  handler(listC2cAppealsContract, ({ query, deps }) => listC2cAppeals(deps, query)),
  handler(resolveC2cAppealContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    resolveC2cAppeal(deps, staffSession, { requestId: BigInt(params.requestId), ...body, callId: request.id }, idempotency),
  ),
  handler(listMerchantsContract, ({ deps }) => listMerchants(deps)),
];
