import { type Contract, idSchema } from '@keel/contracts';
import { z } from 'zod';

// Helpers for tests generated from what the server registers (issue 13): the routes Fastify
// actually has, and the inputs of a contract that name an object by its id.

/** Every route Fastify registered, as "METHOD /path", read from `app.printRoutes({ commonPrefix: false })`. */
export function registeredRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line.replaceAll('\u00a0', ' '));
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    for (const method of (match[3] ?? '').split(',').map((item) => item.trim()).filter(Boolean)) {
      if (method !== 'HEAD') routes.push(`${method} ${stack.join('')}`);
    }
  }
  return routes;
}

export const routeKey = (contract: Pick<Contract, 'method' | 'path'>) => `${contract.method} ${contract.path}`;

/** Where an input travels, and its dotted name there (`[]` marks an array's elements). */
export interface IdField {
  location: 'params' | 'query' | 'body';
  name: string;
}

/**
 * Inputs that name an object although their name does not end in "Id": reviewed by hand.
 * `user` filters the staff queues by "a user id, or a fragment of username, e-mail or phone".
 */
const OBJECT_NAMING_FIELDS = new Set(['user']);

/** An input names an object when it uses the shared id schema, or its name says so (`id`, `…Id`, `…Ids`). */
function namesAnObject(name: string, schema: z.ZodType): boolean {
  return schema === idSchema || name === 'id' || /Ids?$/.test(name) || OBJECT_NAMING_FIELDS.has(name);
}

/** The schema under optional / nullable / default / pipe wrappers. */
function unwrap(node: z.ZodType): z.ZodType {
  if (node instanceof z.ZodOptional || node instanceof z.ZodNullable || node instanceof z.ZodDefault) return unwrap(node.unwrap() as z.ZodType);
  if (node instanceof z.ZodPipe) return unwrap(node.in as z.ZodType);
  return node;
}

function idFieldsIn(location: IdField['location'], schema: z.ZodType | undefined): IdField[] {
  if (!schema) return [];
  const found: IdField[] = [];
  const visit = (node: z.ZodType, prefix: string) => {
    const inner = unwrap(node);
    if (inner instanceof z.ZodObject) {
      for (const [name, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        if (namesAnObject(name, unwrap(child))) found.push({ location, name: `${prefix}${name}` });
        visit(child, `${prefix}${name}.`);
      }
    } else if (inner instanceof z.ZodArray) {
      visit(inner.element as z.ZodType, `${prefix}[].`);
    } else if (inner instanceof z.ZodUnion) {
      for (const option of inner.options as z.ZodType[]) visit(option, prefix);
    } else if (inner instanceof z.ZodIntersection) {
      visit(inner._zod.def.left as z.ZodType, prefix);
      visit(inner._zod.def.right as z.ZodType, prefix);
    }
  };
  visit(schema, '');
  // A union may list the same field twice.
  return found.filter((field, index) => found.findIndex((other) => other.name === field.name) === index);
}

/** Every input of a contract (path, query, body) that names an object by its id. */
export function idFieldsOf(contract: Contract): IdField[] {
  return [
    ...idFieldsIn('params', contract.params as z.ZodType | undefined),
    ...idFieldsIn('query', contract.query as z.ZodType | undefined),
    ...idFieldsIn('body', contract.body as z.ZodType | undefined),
  ];
}

/** The values a request puts in one input: path parameters by the route's pattern, query and JSON body by name. */
export function valuesOfField(path: string, request: { url: string; body?: unknown }, field: IdField): string[] {
  const [pathname, search = ''] = request.url.split('?') as [string, string?];
  if (field.location === 'params') {
    const names = [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
    const pattern = new RegExp(`^${path.replaceAll(/:[A-Za-z]+/g, '([^/]+)')}$`);
    const match = pattern.exec(pathname);
    const index = names.indexOf(field.name);
    return match && index >= 0 ? [decodeURIComponent(match[index + 1]!)] : [];
  }
  if (field.location === 'query') return new URLSearchParams(search).getAll(field.name);
  let values: unknown[] = [request.body];
  for (const part of field.name.split('.')) {
    values =
      part === '[]'
        ? values.flatMap((value) => (Array.isArray(value) ? value : []))
        : values.map((value) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined));
  }
  return values.filter((value): value is string => typeof value === 'string');
}
