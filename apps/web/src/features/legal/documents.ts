import type { MessageKey } from '@keel/locales';

/**
 * The User Agreement and the Terms of Service. They are legal documents: their bodies are
 * published in English only and the English text is binding, while every heading comes from the
 * catalogues so a reader can find their way in their own language. The pages say so.
 */

export interface LegalSection {
  heading: MessageKey;
  paragraphs: string[];
  /** A page of the app the section promises, linked after its paragraphs (English, like the body). */
  link?: { to: string; text: string };
}

export interface LegalDocument {
  title: MessageKey;
  /** ISO date of this version. */
  version: string;
  sections: LegalSection[];
}

export const userAgreement: LegalDocument = {
  title: 'web.legal.agreementTitle',
  version: '2026-11-22',
  sections: [
    {
      heading: 'web.legal.agreement.scope',
      paragraphs: [
        'This User Agreement is between you and the operator of the Keel platform ("Keel", "we", "us"). It applies whenever you use the Keel app or website. By registering or logging in you confirm that you have read this agreement and the Terms of Service and that you accept both.',
        'Keel opens its services step by step. Some services described here are not available yet; the rules below apply to each service from the day it opens, and the app always shows which services are open.',
      ],
    },
    {
      heading: 'web.legal.agreement.account',
      paragraphs: [
        'You register with a username and a password. Keep your password secret. Keel staff will never ask you for your password, for a wallet seed phrase or private key, or for a token approval, and you should never give them to anyone.',
        'You are responsible for what is done with your account until you tell customer service that it may have been misused. One person may hold one account. When identity verification is requested, the information and documents you give must be true and your own.',
      ],
    },
    {
      heading: 'web.legal.agreement.ledger',
      paragraphs: [
        'Every change to a balance is recorded as a balanced double-entry journal entry, with a reason and a reference to what caused it. You can see every entry that touches your accounts. There is no other way to change a balance.',
        'Where staff must correct a balance, two different staff members have to take part (one proposes, another approves), the correction carries a written reason, and it is shown to you as an entry like any other.',
      ],
    },
    {
      heading: 'web.legal.agreement.outcomes',
      paragraphs: [
        'Trade results come from published rules and recorded market data, never from a decision by a person. Short-cycle options settle from the recorded price at expiry, liquidations are triggered by the recorded mark price, and swaps execute at the rate you were quoted. Each result shows the price record (time, price and source) it used.',
        'No member of staff can set, edit or override the result of a trade, a price or a price record. Options and leveraged products can lose you your whole stake; before you first use them you will be asked to acknowledge their risks.',
      ],
    },
    {
      heading: 'web.legal.agreement.withdrawals',
      paragraphs: [
        'Withdrawal limits, daily counts, time windows, reviews and compliance holds are published rules that you can read before you withdraw. A refused or held withdrawal always names the rule that applies to it. Withdrawal fees are a fixed, published amount per chain.',
        'Nobody will ever ask you to pay money, a "tax", a "deposit" or a "fee" in order to release your money. If anyone asks you to, it is fraud: do not pay, and tell customer service.',
      ],
    },
    {
      heading: 'web.legal.agreement.fees',
      paragraphs: [
        'Fees are published before you act, and Keel charges nothing that is not published: a trading fee of 0.1%; no fee for transfers between your own accounts; a fee of at least 0.10% for transfers to another user; and the fixed withdrawal fee of each chain.',
      ],
      link: { to: '/transparency', text: 'Every published fee, limit and rule, with the value the server applies, and the platform’s own accounts' },
    },
    {
      heading: 'web.legal.agreement.earn',
      paragraphs: [
        'Before you subscribe to a product that pays interest, it shows its daily rate, its term, the formula of the penalty for early redemption, and who pays the yield. The yield is paid from the platform treasury account, whose balance is part of the ledger.',
      ],
    },
    {
      heading: 'web.legal.agreement.proof',
      paragraphs: [
        'At regular snapshots Keel publishes the root of a Merkle sum tree of all user balances. You can fetch the proof that your balance is included and check it in your own browser, without trusting us.',
      ],
      link: { to: '/proof', text: 'The published snapshots, and the check of your own balance' },
    },
    {
      heading: 'web.legal.agreement.suspension',
      paragraphs: [
        'We may suspend an account for security or legal reasons, for example a court order or well-founded suspicion of fraud. A suspended account cannot log in; customer service will tell you the reason unless the law forbids it, and what you can do.',
        'A suspension never takes your funds. Your balances stay in the ledger and remain yours.',
      ],
    },
    {
      heading: 'web.legal.agreement.data',
      paragraphs: [
        'We keep only the data needed to run your account and to meet our legal duties: your username, a one-way hash of your password (never the password itself), your sessions, your language, and, once you verify your identity, the documents you upload, stored encrypted. We do not sell your data.',
      ],
    },
    {
      heading: 'web.legal.agreement.service',
      paragraphs: [
        'Customer service is reachable through the support button shown on every page after you log in. If you disagree with something we did, tell customer service; we answer every complaint and name the rule or record our answer is based on.',
      ],
    },
    {
      heading: 'web.legal.agreement.changes',
      paragraphs: [
        'We announce changes to this agreement in the app before they take effect. If you do not accept a change, you may stop using Keel and withdraw your balance under the rules that applied before the change.',
      ],
    },
  ],
};

export const termsOfService: LegalDocument = {
  title: 'web.legal.termsTitle',
  version: '2026-11-22',
  sections: [
    {
      heading: 'web.legal.terms.acceptance',
      paragraphs: [
        'These Terms of Service govern your use of the Keel app and website. They apply together with the User Agreement. By registering or logging in you accept them.',
      ],
    },
    {
      heading: 'web.legal.terms.eligibility',
      paragraphs: [
        'You may use Keel if you are of legal age where you live and the law of your country allows you to use digital-asset services. You may not use Keel for a person or organisation subject to sanctions, or to hide who is really acting.',
      ],
    },
    {
      heading: 'web.legal.terms.services',
      paragraphs: [
        'Keel provides user accounts and, as each opens, deposits and withdrawals of digital assets, trading between users and against market prices, transfers, and products that pay interest. The app shows which services are open; a service that is not open cannot be used and costs nothing.',
      ],
    },
    {
      heading: 'web.legal.terms.risks',
      paragraphs: [
        'Prices of digital assets move quickly and can fall to zero. You may lose part or all of the money you put in, and leveraged or options positions can be lost in full within seconds. Past results say nothing about future ones. Keel does not give investment advice; decide only with money you can afford to lose.',
      ],
    },
    {
      heading: 'web.legal.terms.use',
      paragraphs: [
        'You may not use Keel for fraud, money laundering or financing of crime; to manipulate prices; to get around limits, for example with several accounts; to attack, overload or probe the security of the service; or to impersonate Keel or its staff.',
      ],
    },
    {
      heading: 'web.legal.terms.availability',
      paragraphs: [
        'We aim to keep Keel available at all times, but maintenance and faults can interrupt it. An interruption never changes a result: trades settle only from recorded market data, and every balance change remains in the journal.',
      ],
    },
    {
      heading: 'web.legal.terms.liability',
      paragraphs: [
        'We are responsible for running the service with due care and for the correctness of the ledger. We are not responsible for losses caused by market movements, by your own decisions, or by your sharing your password. Nothing in these terms limits liability that the law does not allow to be limited.',
      ],
    },
    {
      heading: 'web.legal.terms.ending',
      paragraphs: [
        'You may stop using Keel at any time; withdraw your balance first. If we end the service for an account, we say why unless the law forbids it, and the balance remains yours to withdraw under the published rules.',
      ],
    },
    {
      heading: 'web.legal.terms.contact',
      paragraphs: [
        'Questions about these terms go to customer service, through the support button shown on every page after you log in.',
      ],
    },
  ],
};
