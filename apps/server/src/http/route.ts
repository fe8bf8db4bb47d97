import { AppError, type BodyOf, type CallerOf, type Contract, type ParamsOf, type QueryOf } from '@keel/contracts';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps.ts';
import {
  type ClaimedKey,
  claimIdempotencyKey,
  findIdempotentAnswer,
  IdempotentAnswerTaken,
  type IdempotentRequest,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from '../persistence/idempotency.store.ts';
import { forgetCachedSessions } from '../realtime/publish.ts';
import { resolveUserSession, tokenFromHeader, type UserSession } from '../use-cases/auth/resolve-session.ts';
import { assertStaffRole, assertStaffSetUp, resolveStaffSession, type StaffSession } from '../use-cases/admin/staff-auth.ts';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

function idempotencyKeyOf(header: string | string[] | undefined): string {
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !IDEMPOTENCY_KEY.test(key)) throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  return key;
}

/**
 * JSON with object keys sorted, so the same request always hashes the same. Iterative, not
 * recursive: a body of a few kilobytes can nest thousands of arrays deep, which JSON.parse accepts
 * and a recursive walk would answer with a stack overflow (a 500) instead of the contract's 400.
 */
export function stableJson(root: unknown): string {
  const out: string[] = [];
  // Each item is a value to write, or a piece of text (a separator or a closing bracket).
  const work: ({ value: unknown } | string)[] = [{ value: root }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { value } = item;
    if (Array.isArray(value)) {
      out.push('[');
      work.push(']');
      for (let index = value.length - 1; index >= 0; index -= 1) {
        work.push({ value: value[index] });
        if (index > 0) work.push(',');
      }
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      work.push('}');
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        work.push({ value: child });
        work.push(`${JSON.stringify(key)}:`);
        if (index > 0) work.push(',');
      }
    } else {
      out.push(String(JSON.stringify(value)));
    }
  }
  return out.join('');
}

type Parsed<T> = [T] extends [z.ZodType] ? z.output<T> : undefined;

export interface HandlerContext<C extends Contract> {
  body: Parsed<BodyOf<C>>;
  query: Parsed<QueryOf<C>>;
  params: Parsed<ParamsOf<C>>;
  /** Set when the contract's caller is 'user'. */
  session: [CallerOf<C>] extends ['user'] ? UserSession : undefined;
  /** Set when the contract's caller is 'staff'. */
  staffSession: [CallerOf<C>] extends ['staff'] ? StaffSession : undefined;
  request: FastifyRequest;
  /** The checked Idempotency-Key of an `idempotent` contract (empty otherwise), e.g. to key the journal entry too. */
  idempotencyKey: string;
  /**
   * Set only for an `idempotent` contract: hand it to the use case, which commits the answer in
   * the transaction of its effect (`answerInTransaction`), so a crash after that commit cannot
   * lose the answer and a retry replays it (ADR 0019).
   */
  idempotency?: IdempotentRequest<z.input<C['data']>>;
  /** The raw request body of a `binaryBody` contract; empty for every other contract. */
  bytes: Uint8Array;
  deps: Deps;
}

export interface RouteHandler<C extends Contract = Contract> {
  contract: C;
  handle: (context: HandlerContext<C>) => Promise<z.input<C['data']>>;
}

/** Pairs a contract with the function that answers it; the pair is what the server registers. */
export function handler<C extends Contract>(contract: C, handle: RouteHandler<C>['handle']): RouteHandler<C> {
  return { contract, handle };
}

/**
 * Thrown by a test's `afterHandlerCommitted` hook: the route then drops the request as a process
 * that died at that moment would — no answer stored, the key not released — and the client gets a
 * 500 instead of the answer (crash-idempotency test, ADR 0019).
 */
export class SimulatedCrash extends Error {
  constructor(contractId: string) {
    super(`simulated crash after ${contractId} committed`);
    this.name = 'SimulatedCrash';
  }
}

/** Test seams of `registerRoute`; production never sets them. */
export interface RouteHooks {
  /**
   * Called once an idempotent request's handler has returned (its effect committed), with the
   * envelope the route is about to store and send. Throwing `SimulatedCrash` loses that answer.
   */
  afterHandlerCommitted?: (contractId: string, answer: unknown) => void;
}

function fieldIssues(location: string, error: z.ZodError) {
  return error.issues.map((issue) => ({
    field: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

function parsePart(location: string, schema: z.ZodType | undefined, value: unknown) {
  if (!schema) return { value: undefined, issues: [] };
  const result = schema.safeParse(value ?? (location === 'body' ? undefined : {}));
  return result.success ? { value: result.data, issues: [] } : { value: undefined, issues: fieldIssues(location, result.error) };
}

/** The user each change call was made by (set once the session is checked), for the route's onSend. */
const usersChangedBy = new WeakMap<FastifyRequest, bigint>();

/**
 * Registers one contract: authenticate as the contract says, validate body, query and params with
 * its schemas (400 "parameter error" listing every failing field), run the handler, and check the
 * answer against the contract before wrapping it in the envelope. An `idempotent` contract claims
 * its key first, and its use case commits the answer with its effect (ADR 0019).
 */
export function registerRoute(app: FastifyInstance, deps: Deps, route: RouteHandler, hooks: RouteHooks = {}): void {
  const { contract } = route;
  const changesUser = contract.caller === 'user' && contract.method !== 'GET';
  app.route({
    // Before a change's answer goes out (an error's too), this node forgets the user's cached
    // sessions and sends the other nodes the same news: the user's next read, on any node, sees
    // what the change did (issue 15, ADR 0030). The answer does not wait for the bus: while Redis
    // is unreachable, a publish waits out its timeout, and the other nodes' entries end within
    // their second anyway.
    ...(changesUser
      ? {
          onSend: async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
            const userId = usersChangedBy.get(request);
            if (userId !== undefined) void forgetCachedSessions(deps, userId);
            return payload;
          },
        }
      : {}),
    method: contract.method,
    url: contract.path,
    config: contract.rateLimited
      ? { rateLimit: { max: deps.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } }
      : { rateLimit: false },
    // A file upload may be larger than JSON bodies; twice its bound, so a file just over it gets
    // the use case's own "file size mismatch" rather than the generic 413.
    ...(contract.binaryBody ? { bodyLimit: contract.binaryBody.maxBytes * 2 } : {}),
    handler: async (request, reply) => {
      let session: UserSession | undefined;
      let staffSession: StaffSession | undefined;
      const token = tokenFromHeader(request.headers.authorization);
      // A read may reuse a session this node checked in the last second; a change always asks the
      // database, and afterwards every node forgets the user's sessions, so the user's next read
      // sees what the change did (issue 15).
      if (contract.caller === 'user') session = await resolveUserSession(deps, token, { fromCache: contract.method === 'GET' });
      if (session && changesUser) usersChangedBy.set(request, session.user.id);
      if (contract.caller === 'staff') {
        staffSession = await resolveStaffSession(deps, token);
        // First-login steps before roles (ADR 0020): the answer names what the member must do next.
        assertStaffSetUp(staffSession.staff, contract);
        assertStaffRole(staffSession.staff, contract.staffRoles);
      }
      let bytes = new Uint8Array(0);
      if (contract.binaryBody) {
        if (!Buffer.isBuffer(request.body)) {
          throw new AppError('PARAMETER_ERROR', { fields: [{ field: 'body', message: 'send the file as application/octet-stream or image/*' }] });
        }
        bytes = new Uint8Array(request.body);
      }
      const body = parsePart('body', contract.body, contract.binaryBody ? undefined : request.body);
      const query = parsePart('query', contract.query, request.query);
      const params = parsePart('params', contract.params, request.params);
      const issues = [...params.issues, ...query.issues, ...body.issues];
      if (issues.length > 0) throw new AppError('PARAMETER_ERROR', { fields: issues });
      // Checked before the handler runs, so the handler can use it (idempotent contracts only).
      const idempotencyKey = contract.idempotent ? idempotencyKeyOf(request.headers['idempotency-key']) : '';
      // The envelope of a successful answer; `data` is checked against the contract, so no field outside it can leak.
      const envelope = (data: unknown) => ({ code: 200, msg: 'success', data: contract.data.parse(data) });
      const run = async (idempotency?: IdempotentRequest<unknown>) => {
        const result = await route.handle({
          body: body.value,
          query: query.value,
          params: params.value,
          session,
          staffSession,
          request,
          deps,
          bytes,
          idempotencyKey,
          idempotency,
        } as HandlerContext<Contract>);
        if (contract.binaryAnswer) return result as unknown as { bytes: Uint8Array; mediaType: string };
        return envelope(result);
      };
      if (contract.binaryAnswer) {
        const file = (await run()) as unknown as { bytes: Uint8Array; mediaType: string };
        // Private, never cached, never sniffed into something executable — unless the contract
        // names a public file that never changes (a content image).
        return reply
          .code(200)
          .header('content-type', file.mediaType)
          .header('cache-control', contract.cacheable ? `public, max-age=${contract.cacheable.maxAgeSeconds}, immutable` : 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', 'inline')
          .send(Buffer.from(file.bytes));
      }
      if (contract.cacheable) {
        // A public read with an ETag (issue 20): the hash of exactly the bytes sent, so a reader
        // asking again with it is answered 304 without the body while nothing changed.
        const text = JSON.stringify(await run(), (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
        const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
        reply.header('etag', etag).header('cache-control', `public, max-age=${contract.cacheable.maxAgeSeconds}`);
        const asked = request.headers['if-none-match'];
        if (typeof asked === 'string' && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
        return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(text);
      }
      if (!contract.idempotent) return reply.code(200).send(await run());

      const key = idempotencyKey;
      const scope = session ? `user:${session.user.id}` : `staff:${staffSession?.staff.id ?? 'public'}`;
      const requestHash = createHash('sha256')
        .update(`${contract.method} ${request.url.split('?')[0]} ${stableJson(request.body ?? null)}`)
        .digest('hex');
      const claim = await claimIdempotencyKey(deps.db, { scope, key, requestHash, now: deps.now() });
      if (claim.kind === 'replay') {
        return reply.code(claim.status).header('idempotency-replayed', 'true').send(claim.body);
      }
      const claimed: ClaimedKey = { scope, key, claimToken: claim.claimToken };
      // The answer the use case committed together with its effect, when it did (ADR 0019).
      let committedAnswer: ReturnType<typeof envelope> | undefined;
      const idempotency: IdempotentRequest<unknown> = {
        scope,
        key,
        answerInTransaction: async (tx, data) => {
          const answer = envelope(data);
          if (!(await storeIdempotentAnswer(tx, { ...claimed, status: 200, body: answer }))) throw new IdempotentAnswerTaken(scope, key);
          committedAnswer = answer;
        },
      };
      // This run lost its claim (taken over after the in-flight window): the run holding it
      // answers. Its stored answer is replayed; while it still runs, "request in progress".
      const answerOfOtherRun = async () => {
        const stored = await findIdempotentAnswer(deps.db, { scope, key });
        if (!stored) throw new AppError('REQUEST_IN_PROGRESS');
        return reply.code(stored.status).header('idempotency-replayed', 'true').send(stored.body);
      };
      try {
        const returned = await run(idempotency);
        // Exactly what was committed with the effect is sent. A handler whose effect committed
        // elsewhere (a transfer through the ledger batcher, keyed by the request's key) wrote no
        // answer: it is stored now, as the answer of this claim only.
        const answer = committedAnswer ?? returned;
        hooks.afterHandlerCommitted?.(contract.id, answer);
        if (!committedAnswer && !(await storeIdempotentAnswer(deps.db, { ...claimed, status: 200, body: answer }))) return answerOfOtherRun();
        return reply.code(200).send(answer);
      } catch (error) {
        // A simulated crash stores nothing and frees nothing: the process "died" here.
        if (error instanceof SimulatedCrash) throw error;
        // The use case's transaction rolled back because another run of the key committed first.
        if (error instanceof IdempotentAnswerTaken) return answerOfOtherRun();
        // A business refusal is the answer to this request, and a retry gets it again; anything
        // unexpected frees the key so the retry runs (unless an answer committed meanwhile).
        if (error instanceof AppError && error.status < 500) {
          const refusal = { code: error.status, msg: error.message, data: error.data };
          if (!(await storeIdempotentAnswer(deps.db, { ...claimed, status: error.status, body: refusal }))) return answerOfOtherRun();
        } else {
          await releaseIdempotencyKey(deps.db, claimed);
        }
        throw error;
      }
    },
  });
}
