/**
 * The error catalogue of spec section 8, plus the few errors Keel adds (marked "Keel").
 *
 * `msg` is the stable English text that travels in the `{ code, msg, data }` envelope; clients
 * match on it and show a translation (locale key `error.<KEY>`). Never change a `msg`: old
 * clients translate by it. `status` is both the HTTP status and the envelope `code`.
 */
export const errorCatalogue = {
  // Fires when a call that needs a session carries no Authorization header (or an empty one).
  TOKEN_EMPTY: { status: 401, msg: 'token empty' },
  // Fires when the token is unknown, ended by logout, or past its expiry.
  TOKEN_NOT_FOUND: { status: 401, msg: 'token does not exist' },
  // Fires on any authenticated call by a suspended or banned user; the client logs out with redirect=fail400.
  USER_STATUS_INCORRECT: { status: 400, msg: 'user status incorrect' },
  // Fires for an unknown path or method under the API.
  NOT_FOUND: { status: 404, msg: 'request address does not exist' },
  // Fires when input fails its contract; `data.fields` lists each failing field.
  PARAMETER_ERROR: { status: 400, msg: 'parameter error' },
  // Fires for any unexpected failure; details go to the log under the request id, never to the client.
  SYSTEM_ERROR: { status: 500, msg: 'system error' },
  // Fires when a password change names the wrong current password.
  WRONG_ORIGINAL_PASSWORD: { status: 400, msg: 'wrong original password' },
  // Fires when a phone or e-mail code is wrong, used or expired.
  WRONG_VERIFICATION_CODE: { status: 400, msg: 'wrong verification code' },
  // Fires when a password and its confirmation differ.
  PASSWORDS_INCONSISTENT: { status: 400, msg: 'passwords inconsistent' },
  // Fires when a phone-based flow is missing the phone number.
  PHONE_REQUIRED: { status: 400, msg: 'phone required' },
  // Fires when an e-mail-based flow is missing the e-mail address.
  EMAIL_REQUIRED: { status: 400, msg: 'e-mail required' },
  // Fires when login is attempted with an empty account or password.
  ACCOUNT_AND_PASSWORD_EMPTY: { status: 400, msg: 'account and password cannot be empty' },
  // Fires when login fails for any reason that must not reveal whether the account exists.
  ACCOUNT_OR_PASSWORD_INCORRECT: { status: 400, msg: 'account or password incorrect' },
  // Fires when a recovery flow names a phone or e-mail no account has.
  PHONE_OR_EMAIL_NOT_FOUND: { status: 400, msg: 'phone or e-mail does not exist' },
  // Fires when registration names a phone or e-mail that another account already has.
  PHONE_OR_EMAIL_REGISTERED: { status: 400, msg: 'phone or e-mail already registered' },
  // Fires when an invite code is given (or required) and matches no user.
  INVALID_INVITATION_CODE: { status: 400, msg: 'invalid invitation code' },
  // Fires when a sensitive setting asks for the login password and it is wrong.
  WRONG_LOGIN_PASSWORD: { status: 400, msg: 'wrong login password' },
  // Fires when a payment (withdrawal, escrow release) names the wrong payment password.
  WRONG_PAYMENT_PASSWORD: { status: 400, msg: 'wrong payment password' },
  // Fires when an available balance is smaller than what a call would take from it.
  INSUFFICIENT_BALANCE: { status: 400, msg: 'insufficient balance' },
  // Fires when an amount is malformed, zero, negative or finer than the asset's scale.
  WRONG_AMOUNT: { status: 400, msg: 'wrong amount' },
  // Fires when an amount lies outside a product's published minimum and maximum.
  AMOUNT_OUT_OF_RANGE: { status: 400, msg: 'amount out of range' },
  // Fires when a product id names no product, or a withdrawn one.
  PRODUCT_NOT_FOUND: { status: 400, msg: 'product does not exist' },
  // Fires when a purchase quantity is not a whole positive number within limits.
  WRONG_PURCHASE_QUANTITY: { status: 400, msg: 'wrong purchase quantity' },
  // Fires when a user tries to take their own sell ad.
  CANNOT_SELL_OWN_ORDER: { status: 400, msg: "cannot sell one's own sell order" },
  // Fires when an upload's bytes are not jpg, png or gif (whatever its name says).
  WRONG_IMAGE_FORMAT: { status: 400, msg: 'wrong image format' },
  // Fires when an upload is empty or larger than the limit.
  FILE_SIZE_MISMATCH: { status: 400, msg: 'file size mismatch' },
  // Fires when a withdrawal would pass the published daily count.
  DAILY_WITHDRAWAL_COUNT_LIMIT: { status: 400, msg: 'daily withdrawal count limit reached' },
  // Fires when a product's total quota is sold out.
  PURCHASE_LIMIT_EXCEEDED: { status: 400, msg: 'purchase limit exceeded' },
  // Fires when a loan amount is malformed or outside the product range.
  LOAN_AMOUNT_WRONG: { status: 400, msg: 'loan amount wrong' },
  // Fires when a loan amount is above the credit the published policy gives the user.
  LOAN_QUOTA_INSUFFICIENT: { status: 400, msg: 'loan quota insufficient' },
  // Fires at login for a suspended or banned account.
  ACCOUNT_BANNED: { status: 400, msg: 'account banned/suspended' },
  // Fires when a withdrawal cannot be made for a rule named in `data.rule`.
  WITHDRAWAL_IMPOSSIBLE: { status: 400, msg: 'withdrawal impossible' },
  // Fires when staff marked the account withdrawal-forbidden.
  WITHDRAWAL_FORBIDDEN: { status: 400, msg: 'withdrawal forbidden, contact customer service' },
  // Fires when a payment needs the payment password and none is set yet.
  PAYMENT_PASSWORD_NOT_SET: { status: 400, msg: 'no payment password set, confirm to set' },
  // Fires when a deposit request names no channel (currency and chain).
  SELECT_RECHARGE_CHANNEL: { status: 400, msg: 'select a recharge channel' },
  // Fires when the wallet flow is used without a connected wallet.
  WALLET_NOT_CONNECTED: { status: 400, msg: 'wallet not connected or not installed' },
  // Fires when a wallet signature cannot be verified.
  WALLET_CONNECTION_FAILED: { status: 400, msg: 'wallet connection failed' },
  // Fires when a wallet login fails after a valid signature (e.g. no account bound).
  LOGIN_FAILED: { status: 400, msg: 'login failed' },
  // Fires when a phone number is not a valid international number.
  WRONG_PHONE_NUMBER: { status: 400, msg: 'wrong phone number' },
  // Fires when a password change could not be stored.
  PASSWORD_CHANGE_FAILED: { status: 400, msg: 'password change failed' },
  // Fires outside the published trading/withdrawal window; `data` carries the window.
  TRANSACTION_TIME_LIMITED: { status: 400, msg: 'transaction time is limited' },
  // Fires while operators have closed withdrawals for everyone (a published switch).
  WITHDRAWAL_CLOSED: { status: 400, msg: 'withdrawal temporarily closed' },
  // Fires while a withdrawal-period rule (e.g. the 24 h lock after a password change) applies; `data` says until when.
  WITHDRAWAL_PERIOD: { status: 400, msg: 'withdrawal period' },

  // Keel: fires when a registration username is taken (the catalogue only knows phone and e-mail).
  USERNAME_TAKEN: { status: 400, msg: 'username already registered' },
  // Keel: fires when a rate limit is hit; the Retry-After header says when to try again.
  TOO_MANY_REQUESTS: { status: 429, msg: 'too many requests' },
  // Keel (issue 13, ADR 0018): fires when the payment password is locked after the published number of wrong ones (`data.maxFailures` within 24 h); `data.until` (ISO time) says when it unlocks.
  PAYMENT_PASSWORD_LOCKED: { status: 429, msg: 'payment password locked' },
  // Keel: fires when a staff member calls a back-office action their roles do not allow, or when a
  // page from an origin that is not allowed (not the server's own, not in CORS_ORIGINS) opens /ws.
  PERMISSION_DENIED: { status: 403, msg: 'permission denied' },
  // Keel (ADR 0020): fires on every staff call but the first-login steps while the member still has a one-time password.
  STAFF_PASSWORD_CHANGE_REQUIRED: { status: 403, msg: 'set your own password first' },
  // Keel (ADR 0020): fires on every staff call but the first-login steps until the member has enrolled an authenticator (TOTP).
  STAFF_TOTP_ENROLMENT_REQUIRED: { status: 403, msg: 'enrol two-step login first' },
  // Keel (ADR 0020): fires when a staff member who already has an authenticator starts enrolling another (an admin resets it).
  STAFF_TOTP_ALREADY_ENROLLED: { status: 409, msg: 'two-step login already enrolled' },
  // Keel (ADR 0020): fires at staff login with the right one-time password after its published lifetime; an admin issues a new one.
  ONE_TIME_PASSWORD_EXPIRED: { status: 400, msg: 'one-time password expired' },
  // Keel (ADR 0020): fires when an admin changes the roles or state of, or resets, their own staff account.
  OWN_STAFF_ACCOUNT: { status: 403, msg: 'you cannot change your own staff account' },
  // Keel (ADR 0020): fires when a change would leave no active staff member with the admin role.
  LAST_ACTIVE_ADMIN: { status: 409, msg: 'the last active admin must stay an active admin' },
  // Keel (ADR 0020): fires when a staff member's new password is the same as the current (one-time) one.
  NEW_PASSWORD_SAME_AS_OLD: { status: 400, msg: 'the new password must differ from the current one' },
  // Keel: fires when a request body is larger than the server accepts.
  PAYLOAD_TOO_LARGE: { status: 413, msg: 'request body too large' },
  // Keel (issue 19): fires when a transfer to another user names the sender themselves (their own accounts: the free transfer between accounts).
  CANNOT_TRANSFER_TO_SELF: { status: 400, msg: 'cannot transfer to yourself' },
  // Keel: fires when the request names a record (user, staff, message) that does not exist.
  RECORD_NOT_FOUND: { status: 404, msg: 'record does not exist' },
  // Keel: fires when a money-moving call has no Idempotency-Key header.
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, msg: 'idempotency key required' },
  // Keel: fires when an Idempotency-Key is used again with a different request.
  IDEMPOTENCY_KEY_REUSED: { status: 422, msg: 'idempotency key reused with different input' },
  // Keel: fires when a request with the same Idempotency-Key is still being processed.
  REQUEST_IN_PROGRESS: { status: 409, msg: 'request in progress' },
  // Keel (spec sections 4 and 5: "nickname can be set only once"): fires on a second nickname.
  NICKNAME_ALREADY_SET: { status: 400, msg: 'nickname can be set only once' },
  // Keel (spec section 5): fires on advanced verification, fiat trades and contract orders before identity verification.
  // Keel: fires at login when the password is right and the account has two-step login, but no code was sent.
  TWO_STEP_CODE_REQUIRED: { status: 400, msg: 'two-step code required' },
  IDENTITY_VERIFICATION_REQUIRED: { status: 400, msg: 'identity verification required' },
  // Keel: fires when a verification level is submitted while a submission of it waits for review.
  VERIFICATION_IN_REVIEW: { status: 409, msg: 'verification already in review' },
  // Keel: fires when a verification level that is already verified is submitted again.
  ALREADY_VERIFIED: { status: 409, msg: 'already verified' },
  // Keel: fires when staff decide a submission that is no longer in review (decided by someone else).
  VERIFICATION_NOT_IN_REVIEW: { status: 409, msg: 'verification is not in review' },
  // Keel: fires when a swap quote is executed after its 10 s; data.freshQuote holds a new quote.
  QUOTE_EXPIRED: { status: 409, msg: 'quote expired' },
  // Keel: fires when no recent recorded tick exists for a market a call needs (feed down or stale).
  PRICE_UNAVAILABLE: { status: 503, msg: 'market price unavailable' },
  // Keel: fires when a deposit channel's network has no address to give (none configured, or the configured list is used up).
  DEPOSIT_ADDRESS_UNAVAILABLE: { status: 400, msg: 'no deposit address available for this channel' },
  // Keel: fires when a deposit or a withdrawal names a transaction hash that another record of the network already has.
  TX_HASH_ALREADY_USED: { status: 409, msg: 'transaction hash already submitted' },
  // Keel: fires when a wallet address is not valid for its network; `data.problem` says why (format, checksum, wrong_network).
  WRONG_ADDRESS: { status: 400, msg: 'wrong wallet address' },
  // Keel: fires when something the user adds (an address, a bank card) is already in their list.
  ALREADY_ADDED: { status: 409, msg: 'already added' },
  // Keel: fires when a list the user keeps (addresses, bank cards) is at its published size; `data.limit` says it.
  TOO_MANY_ITEMS: { status: 400, msg: 'too many items' },
  // Keel: fires when staff decide, or a user cancels, a deposit or withdrawal that is no longer waiting for that step.
  NOT_PENDING_REVIEW: { status: 409, msg: 'no longer pending review' },
  // Keel: fires when the staff member who gave the first of two required approvals tries to give the second.
  SECOND_APPROVER_REQUIRED: { status: 409, msg: 'a second staff member must approve' },
  // Keel (spec section 5: "selling requires bound contact information"): fires when a sell ad is posted by a user with no P2P contact method.
  CONTACT_METHOD_REQUIRED: { status: 400, msg: 'bind contact information first' },
  // Keel: fires when a fiat trade passes the published single-trade or 30-day threshold of a party below advanced verification.
  ADVANCED_VERIFICATION_REQUIRED: { status: 400, msg: 'advanced verification required' },
  // Keel: fires when a P2P order step does not fit the order's state (or its time); `data.problem` says why.
  ORDER_STATE_CHANGED: { status: 409, msg: 'the order is not in a state for this step' },
  // Keel: fires when a buyer cancelled three orders within 24 h; `data.until` says when ordering opens again.
  ORDERING_RESTRICTED: { status: 400, msg: 'ordering restricted after repeated cancellations' },
  // Keel: fires when an order is placed on, or an edit made to, an ad that is closed.
  AD_NOT_AVAILABLE: { status: 409, msg: 'the ad is no longer available' },
  // Keel (spec section 4: "the sender may withdraw it only within 10 minutes"): fires after those 10 minutes, or for someone else's message.
  WITHDRAW_WINDOW_OVER: { status: 400, msg: 'a message can be withdrawn only within 10 minutes' },
  // Keel (decisions page: "options and leverage need a one-time risk acknowledgement"): fires on a contract order before the user accepted the disclosure.
  RISK_DISCLOSURE_REQUIRED: { status: 400, msg: 'risk disclosure not accepted' },
  // Keel (issue 7: "trading can be switched off per product by configuration"): fires on an order for a product the operator switched off.
  PRODUCT_CLOSED: { status: 400, msg: 'trading is closed for this product' },
  // Keel (issue 16: leverage "limited by notional brackets"): fires on an order whose leverage the product or the bracket of its notional does not allow.
  LEVERAGE_NOT_ALLOWED: { status: 400, msg: 'leverage not allowed for this position size' },
  // Keel (issue 16: take-profit and stop-loss): fires on a take-profit or stop-loss already crossed, or a stop-loss past the liquidation price.
  TRIGGER_PRICE_INVALID: { status: 400, msg: 'take-profit or stop-loss price not allowed' },
  // Keel (issue 16: "a published house exposure limit per market and side"): fires on an order that would take the house past it.
  EXPOSURE_LIMIT_REACHED: { status: 400, msg: 'position limit of this market reached' },
  // Keel (issue 17: "whether early redemption is allowed"): fires on an early redemption of a subscription whose product terms do not allow it.
  EARLY_REDEMPTION_NOT_ALLOWED: { status: 400, msg: 'early redemption not allowed for this product' },
  // Keel (issue 17): fires on a redemption of a subscription that has already matured or been redeemed.
  SUBSCRIPTION_NOT_ACTIVE: { status: 409, msg: 'the subscription has ended' },
  // Keel (issue 18): fires on a repayment of a loan that is not passed (still pending, or already repaid, rejected or liquidated).
  LOAN_NOT_OUTSTANDING: { status: 409, msg: 'the loan is not outstanding' },
  // Keel (issue 18): fires on an approval the lending treasury's balance cannot pay out; the application stays pending.
  LENDING_FUNDS_UNAVAILABLE: { status: 409, msg: 'the lending account cannot fund this loan' },
  // Keel (issue 18, fund): fires on an investment in a request that is not open (in review, filled, expired or settled), or after its window.
  FUND_NOT_OPEN: { status: 409, msg: 'the request is not open for investment' },
  // Keel (issue 18, fund): fires when a borrower invests in their own funding request.
  FUND_OWN_REQUEST: { status: 400, msg: "cannot invest in one's own request" },
  // Keel (issue 19, spec section 4: "a user with an unfinished payment order is told to complete it"): fires on a new C2C request while one is unfinished; `data.orderId` links to it.
  C2C_ORDER_UNFINISHED: { status: 409, msg: 'you have an unfinished payment order: complete it first' },
  // Keel (issue 19): fires when no online merchant serves the country and amount at the price shown (or at all) now.
  C2C_NO_MERCHANT: { status: 409, msg: 'no merchant can take this order now' },
  // Keel (issue 19): fires when the price the user was shown is no longer offered by any online merchant; `data.price` is the best one now.
  C2C_PRICE_CHANGED: { status: 409, msg: 'the price has changed' },
  // Keel (issue 20, ADR 0046): fires when a VIP application asks for, or staff would approve, a level the published rule does not allow on application; `data.reason` says which part.
  VIP_APPLICATION_NOT_ALLOWED: { status: 409, msg: 'vip application not allowed' },
} as const satisfies Record<string, { status: number; msg: string }>;

export type ErrorKey = keyof typeof errorCatalogue;

export const errorKeys = Object.keys(errorCatalogue) as ErrorKey[];

/** Looks an error up by the English text a server sent, the way clients translate it. */
export function errorKeyFromMsg(msg: string): ErrorKey | undefined {
  return errorKeys.find((key) => errorCatalogue[key].msg === msg);
}

/** A catalogue error, thrown by use cases and turned into the envelope by the server. */
export class AppError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  readonly data: unknown;

  constructor(key: ErrorKey, data: unknown = null) {
    super(errorCatalogue[key].msg);
    this.name = 'AppError';
    this.key = key;
    this.status = errorCatalogue[key].status;
    this.data = data;
  }
}
