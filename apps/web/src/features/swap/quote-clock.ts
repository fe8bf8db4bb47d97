import type { SwapQuote } from '@keel/contracts';

/** A quote as the screen holds it: the answer, and when it runs out by this device's clock. */
export interface HeldQuote {
  quote: SwapQuote;
  /** Device time at which the quote expires. */
  expiresAtLocalMs: number;
}

/**
 * Pins a quote's validity to the device clock without trusting the device's time of day: the
 * quote lives `expiresAtMs − createdAtMs` (10 s) from when the server made it, and the server made
 * it after the request left, so counting from the request's departure never shows time the server
 * would not honour.
 */
export function holdQuote(quote: SwapQuote, requestSentAtLocalMs: number): HeldQuote {
  return { quote, expiresAtLocalMs: requestSentAtLocalMs + Math.max(0, quote.expiresAtMs - quote.createdAtMs) };
}

/** Whole seconds left, rounded up (10, 9, … 1), and 0 once expired. */
export function secondsLeft(held: HeldQuote, nowLocalMs: number): number {
  return Math.max(0, Math.ceil((held.expiresAtLocalMs - nowLocalMs) / 1000));
}

export function isExpired(held: HeldQuote, nowLocalMs: number): boolean {
  return nowLocalMs >= held.expiresAtLocalMs;
}
