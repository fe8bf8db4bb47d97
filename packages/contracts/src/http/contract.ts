import type { z } from 'zod';

/** Who may call: anyone, a logged-in user, or a staff member with one of the listed roles. */
export type CallerKind = 'public' | 'user' | 'staff';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of the API: its method, path, who may call it and the zod schemas of its input and of
 * the `data` part of its answer. The server registers it, the typed client calls it, and the
 * OpenAPI document is generated from it, so there are no hand-copied types.
 */
export interface Contract<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Data extends z.ZodType = z.ZodType,
  Caller extends CallerKind = CallerKind,
> {
  readonly id: string;
  readonly method: HttpMethod;
  /** Fastify-style path, e.g. `/home/admin/users/:userId/status`. */
  readonly path: string;
  readonly summary: string;
  readonly caller: Caller;
  /** Staff roles allowed (any one suffices); only for `caller: 'staff'`. Empty means every role. */
  readonly staffRoles?: readonly string[];
  /**
   * A first-login step (ADR 0020): callable by a staff member who still has a one-time password
   * or no authenticator. Every other staff call refuses them with the step that is missing.
   */
  readonly staffSetupStep?: boolean;
  /**
   * A public read that browsers and proxies may keep (issue 20): the answer carries an ETag (a
   * hash of the answer) and `Cache-Control: public, max-age=<maxAgeSeconds>`, and a request with
   * that ETag in `If-None-Match` gets 304 without the body. Everything it depends on must be in
   * the address (the language is a query parameter, never a header).
   */
  readonly cacheable?: { readonly maxAgeSeconds: number };
  /** Auth calls are rate limited per client address. */
  readonly rateLimited?: boolean;
  /**
   * Money-moving calls: the client sends an `Idempotency-Key` header (8–100 characters); a replay
   * answers the stored answer, another request under the same key is refused (422), and a
   * duplicate while the first still runs gets 409.
   */
  readonly idempotent?: boolean;
  readonly body?: Body;
  /**
   * The request body is a file's raw bytes (Content-Type application/octet-stream or image/*),
   * not JSON; the handler gets them as `bytes`. `maxBytes` bounds it.
   */
  readonly binaryBody?: { readonly maxBytes: number; readonly description: string };
  /**
   * The answer is a file's bytes (the handler returns `{ bytes, mediaType }`), not the JSON
   * envelope; errors are still envelopes. `data` then documents nothing and is not checked.
   */
  readonly binaryAnswer?: { readonly description: string };
  readonly query?: Query;
  readonly params?: Params;
  readonly data: Data;
  /** Catalogue keys this call can answer with, besides the generic ones; listed in the docs. */
  readonly errors: readonly string[];
}

export function defineContract<
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Params extends z.ZodType | undefined = undefined,
  Data extends z.ZodType = z.ZodType,
  Caller extends CallerKind = CallerKind,
>(contract: Contract<Body, Query, Params, Data, Caller>): Contract<Body, Query, Params, Data, Caller> {
  return contract;
}

// biome-ignore lint/suspicious/noExplicitAny: `any` here only matches any contract in a conditional type.
type AnyContract = Contract<any, any, any, any, any>;

export type BodyOf<C> = C extends Contract<infer B, infer _Q, infer _P, infer _D, infer _K> ? B : never;
export type QueryOf<C> = C extends Contract<infer _B, infer Q, infer _P, infer _D, infer _K> ? Q : never;
export type ParamsOf<C> = C extends Contract<infer _B, infer _Q, infer P, infer _D, infer _K> ? P : never;
export type CallerOf<C> = C extends Contract<infer _B, infer _Q, infer _P, infer _D, infer K> ? K : never;

type InputPart<Name extends string, S> = [S] extends [z.ZodType]
  ? { [K in Name]: z.input<S> }
  : { [K in Name]?: undefined };

/** What a client passes to a call: the body, query and params it has, nothing it has not. */
export type ContractInput<C extends AnyContract> = InputPart<'body', BodyOf<C>> &
  InputPart<'query', QueryOf<C>> &
  InputPart<'params', ParamsOf<C>>;

export type ContractData<C extends AnyContract> = z.output<C['data']>;

/** The answer envelope of every call (spec section 3). */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
