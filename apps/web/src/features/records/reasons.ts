import type { MessageKey } from '@keel/locales';

/**
 * The reason codes the ledger writes today, with their labels. Codes of later features show as
 * their code until they get a label here.
 */
export const reasonKeys = {
  'transfer.internal': 'web.records.reason.transferInternal',
  // Sent to or received from another user (issue 19): the sender's postings carry the fee.
  'transfer.user': 'web.records.reason.transferUser',
  swap: 'web.records.reason.swap',
  'demo.fund': 'web.records.reason.demoFund',
  'hold.place': 'web.records.reason.holdPlace',
  'hold.release': 'web.records.reason.holdRelease',
  // The wallet (issue 5): a deposit credited, and how a withdrawal's hold ended.
  deposit: 'web.wallet.reason.deposit',
  'withdrawal.completed': 'web.wallet.reason.withdrawalCompleted',
  'withdrawal.rejected': 'web.wallet.reason.withdrawalRejected',
  'withdrawal.failed': 'web.wallet.reason.withdrawalFailed',
  'withdrawal.cancelled': 'web.wallet.reason.withdrawalCancelled',
  // Fiat P2P (issue 6): how an ad's escrow moved.
  'p2p.release': 'web.p2p.reason.release',
  'p2p.refund': 'web.p2p.reason.refund',
  'p2p.order_cancelled': 'web.p2p.reason.orderCancelled',
  'p2p.ad_reduced': 'web.p2p.reason.adReduced',
  'p2p.ad_closed': 'web.p2p.reason.adClosed',
  // An open escrow moved from the coin account to the fiat account, once, when P2P moved there.
  'p2p.escrow_moved': 'web.p2p.reason.escrowMoved',
  // Contracts (issue 7): the stake is frozen by 'hold.place'; this is the settlement.
  'options.settle': 'web.options.reason.settle',
  // Leveraged and futures positions (issue 16).
  'leverage.open': 'web.records.reason.leverageOpen',
  'leverage.order': 'web.records.reason.leverageOrder',
  'leverage.fill': 'web.records.reason.leverageFill',
  'leverage.order_cancel': 'web.records.reason.leverageOrderCancel',
  'leverage.margin_add': 'web.records.reason.leverageMarginAdd',
  'leverage.margin_remove': 'web.records.reason.leverageMarginRemove',
  'leverage.funding': 'web.records.reason.leverageFunding',
  'leverage.interest': 'web.records.reason.leverageInterest',
  'leverage.close': 'web.records.reason.leverageClose',
  'leverage.take_profit': 'web.records.reason.leverageTakeProfit',
  'leverage.stop_loss': 'web.records.reason.leverageStopLoss',
  'leverage.liquidation': 'web.records.reason.leverageLiquidation',
  // Earn (issue 17).
  'earn.subscribe': 'web.records.reason.earnSubscribe',
  'earn.interest': 'web.records.reason.earnInterest',
  'earn.mature': 'web.records.reason.earnMature',
  'earn.redeem': 'web.records.reason.earnRedeem',
  // Loans (issue 18): the collateral pledged and released, the loan paid out, repaid, liquidated.
  'loan.pledge': 'web.records.reason.loanPledge',
  'loan.disburse': 'web.records.reason.loanDisburse',
  'loan.repay': 'web.records.reason.loanRepay',
  'loan.release': 'web.records.reason.loanRelease',
  'loan.liquidate': 'web.records.reason.loanLiquidate',
  // The fund section (issue 18): a request's collateral pledged or returned, investments held,
  // moved to the escrow, released to the borrower in tranches, paid out at term or by the
  // collateral's sale, or returned when the window ended.
  'fund.pledge': 'web.fund.reason.pledge',
  'fund.invest': 'web.fund.reason.invest',
  'fund.fill': 'web.fund.reason.fill',
  'fund.release': 'web.fund.reason.release',
  'fund.repay': 'web.fund.reason.repay',
  'fund.default': 'web.fund.reason.default',
  'fund.refund': 'web.fund.reason.refund',
  'fund.reject': 'web.fund.reason.reject',
  // C2C through merchants (issue 19): the USDT a merchant sold you, a withdrawal's USDT held, paid
  // to the merchant when you confirmed, or released when the order failed.
  'c2c.deposit': 'web.records.reason.c2cDeposit',
  'c2c.withdrawal_hold': 'web.records.reason.c2cWithdrawalHold',
  'c2c.withdrawal': 'web.records.reason.c2cWithdrawal',
  'c2c.release': 'web.records.reason.c2cRelease',
  // A balance changed by staff: proposed by one member, approved by another (issue 22, ADR 0039).
  'staff.correction': 'web.records.reason.staffCorrection',
  // A day's share of the trading fees of someone the user invited (issue 20, ADR 0045).
  'invite.reward': 'web.records.reason.inviteReward',
} as const satisfies Record<string, MessageKey>;

export type KnownReason = keyof typeof reasonKeys;

export const knownReasons = Object.keys(reasonKeys) as KnownReason[];

export function isKnownReason(code: string): code is KnownReason {
  return code in reasonKeys;
}

/** What a record's reference names, when it is more than the user themself. */
export const referenceKeys: Record<string, MessageKey> = {
  swap_quote: 'web.records.ref.swapQuote',
  withdrawal: 'web.wallet.ref.withdrawal',
  deposit: 'web.wallet.ref.deposit',
  p2p_ad: 'web.p2p.ref.ad',
  option_order: 'web.options.ref.order',
  leverage_position: 'web.records.ref.position',
  leverage_order: 'web.records.ref.limitOrder',
  earn_subscription: 'web.records.ref.earnSubscription',
  loan: 'web.records.ref.loan',
  fund_request: 'web.fund.ref.request',
  fund_investment: 'web.fund.ref.investment',
  staff_correction: 'web.records.ref.staffCorrection',
  c2c_request: 'web.records.ref.c2cRequest',
  invite_reward_day: 'web.records.ref.inviteRewardDay',
};
