import { type WalletChannelId, walletChannelIds } from '@keel/contracts';

/**
 * The addresses of the wallet screens and what travels between them in the query string: the
 * withdrawal form keeps its channel and chosen address there, so a trip through the address book
 * (pick or add one) comes back to the same form.
 */

export function isChannelId(value: string | null | undefined): value is WalletChannelId {
  return typeof value === 'string' && (walletChannelIds as readonly string[]).includes(value);
}

/** Ids are positive integers written as text (the contracts' idSchema). */
export function isRecordId(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[1-9][0-9]{0,18}$/.test(value);
}

/** `/assets/WalletAddress/{selete}` and `/assets/card/{selete}`: `select` or `1` is the picker, anything else the manage view. */
export function isPickerMode(selete: string | undefined): boolean {
  return selete === 'select' || selete === '1';
}

function withQuery(path: string, query: Record<string, string | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** The withdrawal form with a channel and an address chosen. */
export function withdrawPath(choice: { channel?: string | null; addressId?: string | null } = {}): string {
  return withQuery('/assets/withdraw', {
    addressId: isRecordId(choice.addressId) ? choice.addressId : undefined,
    channel: isChannelId(choice.channel) ? choice.channel : undefined,
  });
}

/** The address book as a picker for the withdrawal form, remembering the form's channel. */
export function addressPickerPath(channel?: string | null): string {
  return withQuery('/assets/WalletAddress/select', { channel: isChannelId(channel) ? channel : undefined });
}

/**
 * A path inside this app to go back to: it starts with one "/" (never "//", which would be another
 * host) and holds no backslash or control character. Anything else falls back.
 */
export function safeReturnPath(value: string | null | undefined, fallback: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\\\u0000-\u001f\u007f]/.test(value) || value.length > 300) return fallback;
  return value;
}

/** Where a picked bank card goes: the page that asked for it, with `cardId` in its query. */
export function cardPickedPath(returnTo: string | null | undefined, cardId: string): string {
  const base = safeReturnPath(returnTo, '/assets');
  const [path = '/assets', query = ''] = base.split('?', 2);
  const search = new URLSearchParams(query);
  search.set('cardId', cardId);
  return `${path}?${search.toString()}`;
}

/** The deposit records with the request just made marked as new. */
export function depositCreatedPath(depositId: string): string {
  return withQuery('/assets/rechargeLog', { created: depositId });
}

/** A long hash or address shortened in the middle ("0x12ab…9f3c"); short ones stay whole. */
export function shortenMiddle(value: string, head = 8, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}
