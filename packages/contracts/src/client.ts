import type { Callable } from './http/address.ts';
import type { Contract, ContractData, ContractInput, Envelope } from './http/contract.ts';

/** A non-200 envelope, as the client received it. `msg` is the catalogue's English text. */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(envelope: Envelope) {
    super(envelope.msg);
    this.name = 'ApiError';
    this.code = envelope.code;
    this.data = envelope.data;
  }
}

export interface ApiClientOptions {
  /** Prefix for paths; '' for same-origin. */
  baseUrl: string;
  getToken: () => string | null;
  /** Sees every non-200 envelope before the call throws; the apps apply spec section 4 here. */
  onError?: (error: ApiError) => void;
  fetchImpl?: typeof fetch;
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The typed client both apps use: one function that calls any contract. */
export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  // A contract or its address (http/address.ts): the call needs only the id, method and path.
  return async function call<C extends Contract>(
    contract: Callable<C>,
    input: ContractInput<C> & { idempotencyKey?: string } = {} as ContractInput<C> & { idempotencyKey?: string },
  ): Promise<ContractData<C>> {
    const { body, query, params } = input as { body?: unknown; query?: Record<string, unknown>; params?: Record<string, unknown> };
    // A screen that retries one user action passes the same key each time; otherwise each call is new.
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (contract.idempotent) headers['idempotency-key'] = input.idempotencyKey ?? newIdempotencyKey();
    const url = `${options.baseUrl}${fillPath(contract.path, params)}${queryString(query)}`;
    let envelope: Envelope;
    try {
      const response = await fetchImpl(url, {
        method: contract.method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      envelope = (await response.json()) as Envelope;
    } catch {
      // A network failure or a non-JSON answer (a proxy page) is reported like a server failure.
      envelope = { code: 500, msg: 'system error', data: null };
    }
    if (envelope.code !== 200) {
      const error = new ApiError(envelope);
      options.onError?.(error);
      throw error;
    }
    return envelope.data as ContractData<C>;
  };
}

export type ApiCall = ReturnType<typeof createApiClient>;

/** A fresh key for one money-moving action. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
