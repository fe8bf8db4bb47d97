import {
  applyLoanContract,
  decideLoanContract,
  getLoanAgreementContract,
  getLoanContract,
  getLoanHoldingPhotoContract,
  getLoansOverviewContract,
  getStaffLoanContract,
  listLoansContract,
  listStaffLoansContract,
  repayLoanContract,
} from '@keel/contracts';
import { applyForLoan } from '../../use-cases/loans/apply-loan.ts';
import { findLoan, listLoans, loanAgreement, loansOverview } from '../../use-cases/loans/loan-views.ts';
import { repayLoan } from '../../use-cases/loans/repay-loan.ts';
import { decideLoan, getStaffLoan, listStaffLoans, readHoldingPhoto } from '../../use-cases/loans/review-loan.ts';
import { handler, type RouteHandler } from '../route.ts';

/**
 * Loans (issue 18, ADR 0036). Due-date and ratio liquidations are not routes: the loan job
 * (`startLoanSweeps`) runs them from recorded prices.
 */
export const loanRoutes: RouteHandler[] = [
  handler(getLoansOverviewContract, ({ session, deps }) => loansOverview(deps, session.user.id)),
  handler(getLoanAgreementContract, ({ query, deps }) => loanAgreement(deps, { ...query, productId: BigInt(query.productId) })),
  handler(applyLoanContract, ({ session, body, idempotencyKey, idempotency, deps }) =>
    applyForLoan(
      deps,
      {
        user: session.user,
        productId: BigInt(body.productId),
        amount: body.amount,
        collateralAsset: body.collateralAsset,
        collateralAmount: body.collateralAmount,
        holdingUploadId: BigInt(body.holdingUploadId),
        agreementVersion: body.agreementVersion,
        paymentPassword: body.paymentPassword,
        requestKey: idempotencyKey,
      },
      idempotency,
    ),
  ),
  handler(listLoansContract, ({ session, query, deps }) => listLoans(deps, { userId: session.user.id, ...query })),
  handler(getLoanContract, ({ session, params, deps }) => findLoan(deps, session.user.id, BigInt(params.loanId))),
  handler(repayLoanContract, ({ session, params, body, idempotencyKey, idempotency, deps }) =>
    repayLoan(deps, { user: session.user, loanId: BigInt(params.loanId), ...body, requestKey: idempotencyKey }, idempotency),
  ),
];

/** Compliance review of applications: approve (paid out on the last approval required) or reject with a reason. */
export const loanReviewRoutes: RouteHandler[] = [
  handler(listStaffLoansContract, ({ query, deps }) => listStaffLoans(deps, query)),
  handler(getStaffLoanContract, ({ params, deps }) => getStaffLoan(deps, BigInt(params.loanId))),
  handler(getLoanHoldingPhotoContract, async ({ staffSession, params, request, deps }) => {
    const { bytes, mediaType } = await readHoldingPhoto(deps, staffSession, BigInt(params.loanId), request.id);
    return { bytes, mediaType };
  }),
  handler(decideLoanContract, ({ staffSession, params, body, request, deps }) =>
    decideLoan(deps, staffSession, { loanId: BigInt(params.loanId), ...body, requestId: request.id }),
  ),
];
