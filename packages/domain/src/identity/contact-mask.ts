/**
 * How a user's e-mail address or phone number is shown to anyone but the user (ADR 0023): enough to
 * tell two people apart or to confirm a contact someone already has, never enough to reach them.
 * Three stars stand for whatever was left out, so the length is not shown either.
 */

const HIDDEN = '***';

/** First and last character of a part of four or more, the first of two or three, nothing of one. */
function maskPart(text: string): string {
  const characters = [...text];
  if (characters.length >= 4) return `${characters[0]}${HIDDEN}${characters.at(-1)}`;
  if (characters.length >= 2) return `${characters[0]}${HIDDEN}`;
  return HIDDEN;
}

/**
 * `mira.seller@mail.example.org` → `m***r@m***.e***.org`: the local part as `maskPart`, each label
 * of the domain but the top-level one to its first letter (a personal domain names its owner).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return maskPart(email);
  const labels = email.slice(at + 1).split('.');
  const topLevel = labels.length > 1 ? labels.pop() : undefined;
  const domain = [...labels.map((label) => `${[...label][0] ?? ''}${HIDDEN}`), ...(topLevel === undefined ? [] : [topLevel])].join('.');
  return `${maskPart(email.slice(0, at))}@${domain}`;
}

/**
 * Country calling codes of one or two digits (ITU-T E.164). The codes are prefix-free, so any
 * other code is the first three digits.
 */
const SHORT_COUNTRY_CODES = new Set([
  '1', '7', '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53',
  '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98',
]);

function countryCodeOf(digits: string): string {
  for (const length of [1, 2]) if (SHORT_COUNTRY_CODES.has(digits.slice(0, length))) return digits.slice(0, length);
  return digits.slice(0, 3);
}

/** The last two digits, only when at least three more are hidden. */
const lastDigits = (digits: string) => (digits.length >= 5 ? digits.slice(-2) : '');

/** `+491701234567` → `+49***67`: the country calling code and the last two digits. */
export function maskPhone(phone: string): string {
  const international = /^\+(\d+)$/.exec(phone);
  if (!international) return `${HIDDEN}${lastDigits(phone.replace(/\D/g, ''))}`;
  const digits = international[1]!;
  const countryCode = countryCodeOf(digits);
  const national = digits.slice(countryCode.length);
  if (national.length === 0) return `+${HIDDEN}`;
  return `+${countryCode}${HIDDEN}${lastDigits(national)}`;
}

/** An e-mail address masked as one, anything else as a phone number. */
export function maskContact(contact: string): string {
  return contact.includes('@') ? maskEmail(contact) : maskPhone(contact);
}

export interface NamedUser {
  id: bigint | string;
  nickname: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * How a user is named to anyone else (a counterparty, the public ad list, staff queues): the
 * nickname, else the username — both names the user chose to be seen by — else the e-mail or
 * phone masked, else the user number. Never a full contact.
 */
export function publicUserName(user: NamedUser): string {
  if (user.nickname) return user.nickname;
  if (user.username) return user.username;
  if (user.email) return maskEmail(user.email);
  if (user.phone) return maskPhone(user.phone);
  return `#${user.id}`;
}

/**
 * How an inviter sees the people who registered with their code (issue 20): `publicUserName` with
 * the chosen name masked too (`mira_trades` → `m***s`): the inviter learns that someone joined, not
 * who, whoever the link reached.
 */
export function maskedPublicUserName(user: NamedUser): string {
  const chosen = user.nickname ?? user.username;
  return chosen ? maskPart(chosen) : publicUserName(user);
}
