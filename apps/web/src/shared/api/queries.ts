import { createContractHooks, createQueryClient } from '@keel/ui';
import { api, isSessionError } from './client.ts';
import { onSessionChange, session } from './session.ts';

/**
 * The user app's server state (ADR 0026): every read is `useContractQuery(contract, input)`, cached
 * under `[contract.id, input]`; every change is `useContractMutation(contract, { invalidates })`.
 * Both go through the typed client, so the session rules of spec section 4 apply to every answer.
 */
export const { useContractQuery, useContractMutation, prefetchContract } = createContractHooks(api);

export const queryClient = createQueryClient();

// One user's answers are never shown to the next: whenever the device's session changes (login,
// logout, an ended session, another tab), everything cached is dropped.
let cachedFor = session.token();
onSessionChange(() => {
  const now = session.token();
  if (now === cachedFor) return;
  cachedFor = now;
  queryClient.clear();
});

/**
 * Whether a screen should say its data could not be loaded: a failed read, unless the failure was
 * a session error (the client's session rules already sent the user to login).
 */
export function loadFailed(query: { isError: boolean; error: unknown }): boolean {
  return query.isError && !isSessionError(query.error);
}
