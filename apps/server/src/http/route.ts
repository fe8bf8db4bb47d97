import { AppError, type BodyOf, type CallerOf, type Contract, type ParamsOf, type QueryOf } from '@keel/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps.ts';
import { resolveUserSession, tokenFromHeader, type UserSession } from '../use-cases/auth/resolve-session.ts';
import { assertStaffRole, resolveStaffSession, type StaffSession } from '../use-cases/admin/staff-auth.ts';

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

/**
 * Registers one contract: authenticate as the contract says, validate body, query and params with
 * its schemas (400 "parameter error" listing every failing field), run the handler, and check the
 * answer against the contract before wrapping it in the envelope.
 */
export function registerRoute(app: FastifyInstance, deps: Deps, route: RouteHandler): void {
  const { contract } = route;
  app.route({
    method: contract.method,
    url: contract.path,
    config: contract.rateLimited
      ? { rateLimit: { max: deps.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } }
      : { rateLimit: false },
    handler: async (request, reply) => {
      let session: UserSession | undefined;
      let staffSession: StaffSession | undefined;
      const token = tokenFromHeader(request.headers.authorization);
      if (contract.caller === 'user') session = await resolveUserSession(deps, token);
      if (contract.caller === 'staff') {
        staffSession = await resolveStaffSession(deps, token);
        assertStaffRole(staffSession.staff, contract.staffRoles);
      }
      const body = parsePart('body', contract.body, request.body);
      const query = parsePart('query', contract.query, request.query);
      const params = parsePart('params', contract.params, request.params);
      const issues = [...params.issues, ...query.issues, ...body.issues];
      if (issues.length > 0) throw new AppError('PARAMETER_ERROR', { fields: issues });
      const result = await route.handle({
        body: body.value,
        query: query.value,
        params: params.value,
        session,
        staffSession,
        request,
        deps,
      } as HandlerContext<Contract>);
      // The answer is checked against the contract, so no field outside it can leak.
      const data = contract.data.parse(result);
      return reply.code(200).send({ code: 200, msg: 'success', data });
    },
  });
}
