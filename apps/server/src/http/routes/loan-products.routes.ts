import { decideLoanProductChangeContract, listStaffLoanProductsContract, proposeLoanProductChangeContract } from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import { decideLoanProductChange, listStaffLoanProducts, proposeLoanProductChange } from '../../use-cases/loans/staff-products.ts';

/**
 * Staff: loan products proposed by one admin and approved by another (issue 18, ADR 0036). No
 * staff call sets a credit limit, a score, a price, an amount owed or a liquidation.
 */
export const loanProductRoutes: RouteHandler[] = [
  handler(listStaffLoanProductsContract, ({ query, deps }) => listStaffLoanProducts(deps, query)),
  handler(proposeLoanProductChangeContract, ({ staffSession, body, deps }) => proposeLoanProductChange(deps, staffSession, body)),
  handler(decideLoanProductChangeContract, ({ staffSession, params, body, deps }) =>
    decideLoanProductChange(deps, staffSession, { changeId: BigInt(params.changeId), approve: body.approve, note: body.note }),
  ),
];
