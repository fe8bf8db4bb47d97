import { ApiError, newIdempotencyKey } from '@keel/contracts';
import { useRef } from 'react';

/**
 * The idempotency key of one user action (a transfer, a swap). Pressing the button again for the
 * same input after an uncertain outcome (no answer, a server failure, "still in progress") sends
 * the same key, so the server answers the first request's result instead of moving money twice.
 * After a definite answer (success or a refusal such as "insufficient balance", which the server
 * stores under the key) the next press is a new action with a new key.
 */
export class ActionKey {
  private current: { input: string; key: string } | null = null;
  constructor(private readonly newKey: () => string = newIdempotencyKey) {}

  /** The key for a press with this input (serialised). */
  keyFor(input: string): string {
    if (this.current?.input !== input) this.current = { input, key: this.newKey() };
    return this.current.key;
  }

  /** After the answer: keep the key only when the outcome is unknown. */
  settle(error?: unknown) {
    if (!isUncertain(error)) this.current = null;
  }
}

/** True when a call may or may not have taken effect. */
export function isUncertain(error: unknown): boolean {
  if (error === undefined) return false;
  if (!(error instanceof ApiError)) return true;
  return error.code >= 500 || error.code === 409;
}

export function useActionKey(): ActionKey {
  const ref = useRef<ActionKey | null>(null);
  if (ref.current === null) ref.current = new ActionKey();
  return ref.current;
}
