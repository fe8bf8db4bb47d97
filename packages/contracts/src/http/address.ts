import type { Contract, HttpMethod } from './contract.ts';

/**
 * What a client needs to call a contract, without the contract's zod schemas: its id (the cache
 * key), method and path, and whether it takes an idempotency key. A contract module builds its
 * schemas when it is loaded, and so needs zod (28 KB of the mobile link); a screen that paints
 * before zod has arrived — the tab screens' first render (ADR 0025, fourth pass) — calls through
 * addresses instead. The type parameter carries the contract's input and answer types, so a call
 * through an address is typed as a call of the contract; `addresses.test.ts` checks each address
 * against the contract of the same id.
 */
export interface ContractAddress<C extends Contract = Contract> {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly idempotent?: boolean;
  /** Never present at run time: the contract's type, for the typed client and query hooks. */
  readonly contractType?: C;
}

/** A contract or its address: either is enough to call it. */
export type Callable<C extends Contract> = C | ContractAddress<C>;
