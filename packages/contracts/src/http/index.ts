import { loginContract, logoutContract, registerContract, resetPasswordContract, sendCodeContract } from './auth/auth.contracts.ts';
import {
  listAuditContract,
  listNotificationsContract,
  listUsersContract,
  setUserStatusContract,
  staffLoginContract,
  staffLogoutContract,
  staffMeContract,
} from './admin/admin.contracts.ts';
import {
  createStaffContract,
  disableStaffContract,
  enableStaffContract,
  enableStaffTotpContract,
  endOwnStaffSessionContract,
  endStaffSessionContract,
  listOwnStaffSessionsContract,
  listStaffContract,
  listStaffSessionsContract,
  resetStaffPasswordContract,
  setOwnStaffPasswordContract,
  setStaffRolesContract,
  startStaffTotpContract,
} from './admin/staff.contracts.ts';
import { getTwoPersonRuleContract } from './admin/two-person.contracts.ts';
import { decideCorrectionContract, listCorrectionsContract, proposeCorrectionContract } from './admin/corrections.contracts.ts';
import {
  getLiabilitySnapshotContract,
  getMyInclusionProofContract,
  listLiabilitySnapshotsContract,
  requestLiabilitySnapshotContract,
} from './proof/proof.contracts.ts';
import { getTransparencyContract } from './transparency/transparency.contracts.ts';
import { invitationContracts } from './invitations/invitations.contracts.ts';
import { walletConnectContracts } from './wallet-connect/wallet-connect.contracts.ts';
import { contentContracts } from './content/content.contracts.ts';
import { applyForVipContract, decideVipApplicationContract, listVipApplicationsContract, myVipContract, vipLevelsContract } from './vip/vip.contracts.ts';
import { listAccountsContract, listRecordsContract, transferBetweenAccountsContract } from './assets/assets.contracts.ts';
import { findTransferRecipientContract, listUserTransfersContract, transferToUserContract } from './assets/user-transfers.contracts.ts';
import { getWatchlistContract, listCandlesContract, listTickersContract, setWatchlistContract } from './market/market.contracts.ts';
import { createSwapQuoteContract, executeSwapContract } from './swap/swap.contracts.ts';
import {
  decideVerificationContract,
  getStaffUploadContract,
  getUploadContract,
  getVerificationContract,
  listVerificationsContract,
  submitAdvancedVerificationContract,
  submitIdentityVerificationContract,
  uploadImageContract,
  verificationStatusContract,
} from './verification/verification.contracts.ts';
import { serviceUrlContract, siteContract } from './index/index.contracts.ts';
import {
  addBankCardContract,
  addWithdrawalAddressContract,
  cancelWithdrawalContract,
  createDepositContract,
  createWithdrawalContract,
  depositAddressContract,
  getDepositContract,
  getWithdrawalContract,
  listBankCardsContract,
  listDepositsContract,
  listWithdrawalAddressesContract,
  listWithdrawalsContract,
  removeBankCardContract,
  removeWithdrawalAddressContract,
  walletOverviewContract,
} from './wallet/wallet.contracts.ts';
import {
  completeWithdrawalContract,
  decideDepositContract,
  decideWithdrawalContract,
  failWithdrawalContract,
  getDepositProofContract,
  getStaffDepositContract,
  getStaffWithdrawalContract,
  listStaffDepositsContract,
  listStaffWithdrawalsContract,
} from './wallet/wallet-admin.contracts.ts';
import {
  cancelP2pOrderContract,
  closeP2pAdContract,
  editP2pAdContract,
  getP2pOrderContract,
  listP2pAdsContract,
  listP2pOrdersContract,
  markP2pOrderPaidContract,
  placeP2pOrderContract,
  postP2pAdContract,
  releaseP2pOrderContract,
  appealP2pOrderContract,
  listP2pChatContract,
  sendP2pChatContract,
  withdrawP2pChatContract,
  getP2pChatImageContract,
  listP2pAppealsContract,
  getP2pAppealContract,
  resolveP2pAppealContract,
  getStaffChatImageContract,
} from './p2p/p2p.contracts.ts';
import {
  acceptOptionsDisclosureContract,
  getOptionOrderContract,
  getOptionsHouseContract,
  getOptionsOverviewContract,
  listOptionOrdersContract,
  listStaffOptionOrdersContract,
  placeOptionOrderContract,
} from './options/options.contracts.ts';
import {
  acceptLeverageDisclosureContract,
  cancelLimitOrderContract,
  listLimitOrdersContract,
  placeLimitOrderContract,
  changePositionMarginContract,
  closePositionContract,
  getLeverageOverviewContract,
  getPositionContract,
  listPositionsContract,
  openPositionContract,
  setPositionTriggersContract,
} from './leverage/leverage.contracts.ts';
import {
  getLeverageExposureContract,
  getLeverageInsuranceFundContract,
  getStaffPositionContract,
  listStaffPositionsContract,
} from './leverage/leverage-admin.contracts.ts';
import {
  acknowledgeEarnTermsContract,
  getEarnOverviewContract,
  getEarnSubscriptionContract,
  listEarnSubscriptionsContract,
  redeemEarnSubscriptionContract,
  subscribeEarnContract,
} from './earn/earn.contracts.ts';
import { decideEarnProductChangeContract, listStaffEarnProductsContract, proposeEarnProductChangeContract } from './earn/earn-admin.contracts.ts';
import {
  applyLoanContract,
  getLoanAgreementContract,
  getLoanContract,
  getLoansOverviewContract,
  listLoansContract,
  repayLoanContract,
} from './loans/loans.contracts.ts';
import {
  decideLoanContract,
  decideLoanProductChangeContract,
  getLoanHoldingPhotoContract,
  getStaffLoanContract,
  listStaffLoanProductsContract,
  listStaffLoansContract,
  proposeLoanProductChangeContract,
} from './loans/loans-admin.contracts.ts';
import {
  decideFundRequestContract,
  getFundInvestmentContract,
  getFundOverviewContract,
  getFundRequestContract,
  investFundContract,
  listFundInvestmentsContract,
  listFundPoolContract,
  listMyFundRequestsContract,
  listStaffFundRequestsContract,
  publishFundRequestContract,
} from './fund/fund.contracts.ts';
import {
  getC2cOptionsContract,
  createC2cDepositContract,
  createC2cWithdrawalContract,
  listC2cRequestsContract,
  getC2cRequestContract,
  markC2cPaidContract,
  confirmC2cReceivedContract,
  cancelC2cRequestContract,
  appealC2cRequestContract,
  getC2cBankDetailsContract,
  getMerchantProfileContract,
  saveMerchantProfileContract,
  listMerchantRequestsContract,
  acceptC2cOfferContract,
  declineC2cOfferContract,
  confirmC2cFiatReceivedContract,
  markC2cFiatSentContract,
  appealC2cAsMerchantContract,
  getC2cProofImageContract,
  listC2cAppealsContract,
  resolveC2cAppealContract,
  listMerchantsContract,
} from './c2c/c2c.contracts.ts';
import { listMessagesContract, markMessagesReadContract, meContract, setLanguageContract, unreadContract } from './user/user.contracts.ts';
import {
  bindContactContract,
  changeLoginPasswordContract,
  endSessionContract,
  listSessionsContract,
  securityOverviewContract,
  sendContactCodeContract,
  setAntiPhishingCodeContract,
  setContactMethodsContract,
  setNicknameContract,
  setPaymentPasswordContract,
  disableTotpContract,
  enableTotpContract,
  startTotpSetupContract,
} from './user/security.contracts.ts';

export * from './contract.ts';
export * from './address.ts';
export * from './user-display-name.ts';
export * from './common.ts';
export * from './validation.ts';
export * from './auth/auth.contracts.ts';
export * from './user/user.contracts.ts';
export * from './user/user.addresses.ts';
export * from './user/security.contracts.ts';
export * from './verification/verification.contracts.ts';
export * from './vip/vip.contracts.ts';
export * from './wallet-connect/wallet-connect.contracts.ts';
export * from './index/index.contracts.ts';
export * from './index/index.addresses.ts';
export * from './content/content.addresses.ts';
export * from './admin/admin.contracts.ts';
export * from './admin/staff.contracts.ts';
export * from './admin/two-person.contracts.ts';
export * from './admin/corrections.contracts.ts';
export * from './content/content.contracts.ts';
export * from './proof/proof.contracts.ts';
export * from './transparency/transparency.contracts.ts';
export * from './invitations/invitations.contracts.ts';
export * from './assets/assets.contracts.ts';
export * from './assets/assets.addresses.ts';
export * from './assets/user-transfers.contracts.ts';
export * from './market/market.contracts.ts';
export * from './market/market.addresses.ts';
export * from './swap/swap.contracts.ts';
export * from './wallet/wallet.contracts.ts';
export * from './wallet/wallet-admin.contracts.ts';
export * from './p2p/p2p.contracts.ts';
export * from './options/options.contracts.ts';
export * from './options/options.addresses.ts';
export * from './leverage/leverage.contracts.ts';
export * from './leverage/leverage-admin.contracts.ts';
export * from './earn/earn.contracts.ts';
export * from './earn/earn-admin.contracts.ts';
export * from './loans/loans.contracts.ts';
export * from './loans/loans-admin.contracts.ts';
export * from './fund/fund.contracts.ts';
export * from './c2c/c2c.contracts.ts';
export * from '../ws/market.events.ts';
export * from '../ws/user.events.ts';

/** Every call of the API; the server registers exactly these and the docs list exactly these. */
export const allContracts = [
  getC2cOptionsContract,
  createC2cDepositContract,
  createC2cWithdrawalContract,
  listC2cRequestsContract,
  getC2cRequestContract,
  markC2cPaidContract,
  confirmC2cReceivedContract,
  cancelC2cRequestContract,
  appealC2cRequestContract,
  getC2cBankDetailsContract,
  getMerchantProfileContract,
  saveMerchantProfileContract,
  listMerchantRequestsContract,
  acceptC2cOfferContract,
  declineC2cOfferContract,
  confirmC2cFiatReceivedContract,
  markC2cFiatSentContract,
  appealC2cAsMerchantContract,
  getC2cProofImageContract,
  listC2cAppealsContract,
  resolveC2cAppealContract,
  listMerchantsContract,
  registerContract,
  sendCodeContract,
  resetPasswordContract,
  loginContract,
  logoutContract,
  unreadContract,
  meContract,
  setLanguageContract,
  securityOverviewContract,
  setNicknameContract,
  changeLoginPasswordContract,
  setPaymentPasswordContract,
  sendContactCodeContract,
  bindContactContract,
  setContactMethodsContract,
  setAntiPhishingCodeContract,
  listSessionsContract,
  endSessionContract,
  startTotpSetupContract,
  enableTotpContract,
  disableTotpContract,
  uploadImageContract,
  getUploadContract,
  verificationStatusContract,
  submitIdentityVerificationContract,
  submitAdvancedVerificationContract,
  listVerificationsContract,
  getVerificationContract,
  getStaffUploadContract,
  decideVerificationContract,
  serviceUrlContract,
  siteContract,
  staffLoginContract,
  staffLogoutContract,
  staffMeContract,
  setOwnStaffPasswordContract,
  startStaffTotpContract,
  enableStaffTotpContract,
  listOwnStaffSessionsContract,
  endOwnStaffSessionContract,
  listStaffContract,
  createStaffContract,
  setStaffRolesContract,
  disableStaffContract,
  enableStaffContract,
  resetStaffPasswordContract,
  listStaffSessionsContract,
  endStaffSessionContract,
  listUsersContract,
  setUserStatusContract,
  listAuditContract,
  listNotificationsContract,
  listAccountsContract,
  transferBetweenAccountsContract,
  findTransferRecipientContract,
  transferToUserContract,
  listUserTransfersContract,
  listRecordsContract,
  listTickersContract,
  listCandlesContract,
  getWatchlistContract,
  setWatchlistContract,
  createSwapQuoteContract,
  executeSwapContract,
  walletOverviewContract,
  depositAddressContract,
  createDepositContract,
  listDepositsContract,
  getDepositContract,
  listWithdrawalAddressesContract,
  addWithdrawalAddressContract,
  removeWithdrawalAddressContract,
  createWithdrawalContract,
  listWithdrawalsContract,
  getWithdrawalContract,
  cancelWithdrawalContract,
  listBankCardsContract,
  addBankCardContract,
  removeBankCardContract,
  listStaffDepositsContract,
  getStaffDepositContract,
  getDepositProofContract,
  decideDepositContract,
  listStaffWithdrawalsContract,
  getStaffWithdrawalContract,
  decideWithdrawalContract,
  completeWithdrawalContract,
  failWithdrawalContract,
  getTwoPersonRuleContract,
  listP2pAdsContract,
  postP2pAdContract,
  editP2pAdContract,
  closeP2pAdContract,
  placeP2pOrderContract,
  listP2pOrdersContract,
  getP2pOrderContract,
  markP2pOrderPaidContract,
  cancelP2pOrderContract,
  releaseP2pOrderContract,
  appealP2pOrderContract,
  listP2pChatContract,
  sendP2pChatContract,
  withdrawP2pChatContract,
  getP2pChatImageContract,
  listP2pAppealsContract,
  getP2pAppealContract,
  resolveP2pAppealContract,
  getStaffChatImageContract,
  listMessagesContract,
  markMessagesReadContract,
  getOptionsOverviewContract,
  acceptOptionsDisclosureContract,
  placeOptionOrderContract,
  listOptionOrdersContract,
  getOptionOrderContract,
  getOptionsHouseContract,
  listStaffOptionOrdersContract,
  getLeverageOverviewContract,
  acceptLeverageDisclosureContract,
  openPositionContract,
  closePositionContract,
  changePositionMarginContract,
  setPositionTriggersContract,
  listPositionsContract,
  getPositionContract,
  placeLimitOrderContract,
  cancelLimitOrderContract,
  listLimitOrdersContract,
  listStaffPositionsContract,
  getStaffPositionContract,
  getLeverageExposureContract,
  getLeverageInsuranceFundContract,
  getEarnOverviewContract,
  acknowledgeEarnTermsContract,
  subscribeEarnContract,
  listEarnSubscriptionsContract,
  getEarnSubscriptionContract,
  redeemEarnSubscriptionContract,
  listStaffEarnProductsContract,
  proposeEarnProductChangeContract,
  decideEarnProductChangeContract,
  getLoansOverviewContract,
  getLoanAgreementContract,
  applyLoanContract,
  listLoansContract,
  getLoanContract,
  repayLoanContract,
  listStaffLoansContract,
  getStaffLoanContract,
  getLoanHoldingPhotoContract,
  decideLoanContract,
  listStaffLoanProductsContract,
  proposeLoanProductChangeContract,
  decideLoanProductChangeContract,
  getFundOverviewContract,
  publishFundRequestContract,
  listFundPoolContract,
  listMyFundRequestsContract,
  getFundRequestContract,
  investFundContract,
  listFundInvestmentsContract,
  getFundInvestmentContract,
  listStaffFundRequestsContract,
  decideFundRequestContract,
  listCorrectionsContract,
  proposeCorrectionContract,
  decideCorrectionContract,
  listLiabilitySnapshotsContract,
  getLiabilitySnapshotContract,
  getMyInclusionProofContract,
  requestLiabilitySnapshotContract,
  getTransparencyContract,
  ...invitationContracts,
  ...walletConnectContracts,
  ...contentContracts,
  vipLevelsContract,
  myVipContract,
  applyForVipContract,
  listVipApplicationsContract,
  decideVipApplicationContract,
] as const;
