import {
  getLeverageExposureContract,
  getMerchantProfileContract,
  getLeverageInsuranceFundContract,
  getOptionsHouseContract,
  listAuditContract,
  listC2cAppealsContract,
  listCorrectionsContract,
  listStaffEarnProductsContract,
  listStaffFundRequestsContract,
  listStaffLoanProductsContract,
  listStaffLoansContract,
  listNotificationsContract,
  listP2pAppealsContract,
  listStaffContentContract,
  listStaffContract,
  listStaffDepositsContract,
  listStaffOptionOrdersContract,
  listStaffPositionsContract,
  listStaffWithdrawalsContract,
  listUsersContract,
  listVerificationsContract,
  listVipApplicationsContract,
  requestLiabilitySnapshotContract,
  type StaffRole,
} from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

/**
 * The back-office's views in the order of the navigation, each with its URL under /admin and the
 * reads it opens with. A view is offered to staff whose roles the server accepts for one of those
 * reads (the contracts' `staffRoles`), so the navigation never offers what the server refuses.
 */
export const views = [
  // The user list (admin, compliance, support, finance; contacts masked for the last two, ADR 0023).
  { name: 'users', path: 'users', label: 'admin.nav.users', reads: [listUsersContract] },
  { name: 'audit', path: 'audit', label: 'admin.nav.audit', reads: [listAuditContract] },
  { name: 'verifications', path: 'verifications', label: 'admin.verifications.nav', reads: [listVerificationsContract] },
  // VIP applications (issue 20, ADR 0046; roles admin and compliance): approval only within the published rule.
  { name: 'vip', path: 'vip', label: 'admin.vip.nav', reads: [listVipApplicationsContract] },
  { name: 'outbox', path: 'outbox', label: 'admin.outbox.nav', reads: [listNotificationsContract] },
  // The finance area (roles admin and finance).
  { name: 'deposits', path: 'deposits', label: 'admin.finance.nav.deposits', reads: [listStaffDepositsContract] },
  { name: 'withdrawals', path: 'withdrawals', label: 'admin.finance.nav.withdrawals', reads: [listStaffWithdrawalsContract] },
  // Staff corrections (ADR 0039): a balance changed only by one member's proposal that a different
  // member approves (an admin above the published amount); the user reads the reason.
  { name: 'corrections', path: 'corrections', label: 'admin.corrections.nav', reads: [listCorrectionsContract] },
  // P2P appeals (roles admin and support): the frozen escrow of an appealed order.
  { name: 'appeals', path: 'appeals', label: 'admin.appeals.nav', reads: [listP2pAppealsContract] },
  // C2C through merchants (issue 19, ADR 0043): support's appeals of C2C orders (role support), and
  // the merchant console (role merchant: profile, terms, float, offers and orders).
  { name: 'c2cAppeals', path: 'c2c/appeals', label: 'admin.c2c.nav.appeals', reads: [listC2cAppealsContract] },
  { name: 'merchant', path: 'c2c/merchant', label: 'admin.c2c.nav.merchant', reads: [getMerchantProfileContract] },
  // Contracts, read only: the house's result (admin, finance) or every user's orders (admin, finance, support).
  { name: 'options', path: 'options', label: 'admin.options.nav', reads: [getOptionsHouseContract, listStaffOptionOrdersContract] },
  // Leveraged and futures positions, read only: every user's positions (admin, finance, support);
  // the house's exposure and the insurance fund (admin, finance).
  { name: 'leveragePositions', path: 'leverage/positions', label: 'admin.leverage.nav.positions', reads: [listStaffPositionsContract] },
  { name: 'leverageExposure', path: 'leverage/exposure', label: 'admin.leverage.nav.exposure', reads: [getLeverageExposureContract] },
  { name: 'insuranceFund', path: 'leverage/insurance-fund', label: 'admin.leverage.nav.insuranceFund', reads: [getLeverageInsuranceFundContract] },
  // Earn products (role admin, ADR 0035): products, the earn treasury, proposals decided by a second admin.
  { name: 'earn', path: 'earn', label: 'admin.earn.nav', reads: [listStaffEarnProductsContract] },
  // Loans (ADR 0036): applications reviewed by compliance (two members above the published amount);
  // loan products and the lending treasury (role admin), proposals decided by a second admin.
  { name: 'loans', path: 'loans', label: 'admin.loans.nav', reads: [listStaffLoansContract] },
  { name: 'loanProducts', path: 'loan-products', label: 'admin.loans.products.nav', reads: [listStaffLoanProductsContract] },
  // Funding requests (ADR 0037): reviewed by compliance; approved, a request enters the pool for its window.
  { name: 'fundRequests', path: 'fund/requests', label: 'admin.fund.nav', reads: [listStaffFundRequestsContract] },
  // Proof of liabilities (ADR 0040; role admin): the published snapshots (a public list) and a
  // request for one now. The list is everyone's to read, so the view opens by the request's roles.
  { name: 'proof', path: 'proof', label: 'admin.proof.nav', reads: [requestLiabilitySnapshotContract] },
  // Content (issue 20, ADR 0044; role content): news, help articles, courses, the about page and
  // home banners in 13 languages; an item opens in the editor at /admin/content/:itemId.
  { name: 'content', path: 'content', label: 'admin.content.nav', reads: [listStaffContentContract] },
  // Staff accounts (role admin, ADR 0020).
  { name: 'staff', path: 'staff', label: 'admin.staff.nav', reads: [listStaffContract] },
  // Every member: the own sessions and the password.
  { name: 'mysessions', path: 'me/sessions', label: 'admin.sessions.mineNav', reads: [] },
] as const satisfies readonly { name: string; path: string; label: MessageKey; reads: readonly { staffRoles?: readonly string[] }[] }[];

export type View = (typeof views)[number];
export type ViewName = View['name'];

/** Whether staff with `roles` may call a contract (its `staffRoles`; none listed means every role). */
export function mayCall(roles: readonly StaffRole[], contract: { staffRoles?: readonly string[] }): boolean {
  const allowed = contract.staffRoles ?? [];
  return allowed.length === 0 || roles.some((role) => allowed.includes(role));
}

/** Whether `roles` open a view: any of its reads will do; a view with no read is every member's. */
export function viewAllowed(name: ViewName, roles: readonly StaffRole[]): boolean {
  const view = views.find((each) => each.name === name)!;
  const reads: readonly { staffRoles?: readonly string[] }[] = view.reads;
  return reads.length === 0 || reads.some((contract) => mayCall(roles, contract));
}

/** Where /admin leads: the first view these roles may open (content and merchant staff have no user list: content staff land on the content, a merchant on the console). */
export function firstAllowedView(roles: readonly StaffRole[]): View {
  return views.find((view) => viewAllowed(view.name, roles)) ?? views[views.length - 1]!;
}
