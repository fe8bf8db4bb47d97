import { allContracts, errorCatalogue, type Contract, type ErrorKey } from '@keel/contracts';
import { z } from 'zod';

const genericErrors: ErrorKey[] = ['PARAMETER_ERROR', 'NOT_FOUND', 'SYSTEM_ERROR'];
const callerErrors: Record<Contract['caller'], ErrorKey[]> = {
  public: [],
  user: ['TOKEN_EMPTY', 'TOKEN_NOT_FOUND', 'USER_STATUS_INCORRECT'],
  staff: ['TOKEN_EMPTY', 'TOKEN_NOT_FOUND'],
};

/** Every catalogue error a call can answer with: its own, those of its caller kind, the generic ones. */
export function errorsOf(contract: Contract): ErrorKey[] {
  // Staff calls other than the first-login steps also refuse a member who has not taken them (ADR 0020).
  const setupErrors: ErrorKey[] =
    contract.caller === 'staff' && !contract.staffSetupStep ? ['STAFF_PASSWORD_CHANGE_REQUIRED', 'STAFF_TOTP_ENROLMENT_REQUIRED'] : [];
  return [...new Set([...(contract.errors as ErrorKey[]), ...callerErrors[contract.caller], ...setupErrors, ...genericErrors])];
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' });
}

function envelopeSchema(data: object) {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: { code: { type: 'integer', const: 200 }, msg: { type: 'string' }, data },
  };
}

/** The OpenAPI 3.1 document, generated from the contracts: the only source of the API's shape. */
export function buildOpenApiDocument(contracts: readonly Contract[] = allContracts) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    const path = contract.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [location, schema] of [
      ['path', contract.params],
      ['query', contract.query],
    ] as const) {
      if (!schema) continue;
      const shape = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(shape.properties ?? {})) {
        parameters.push({ name, in: location, required: location === 'path' || (shape.required ?? []).includes(name), schema: property });
      }
    }
    const responses: Record<string, unknown> = {
      200: contract.binaryAnswer
        ? { description: contract.binaryAnswer.description, content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } }
        : { description: 'success', content: { 'application/json': { schema: envelopeSchema(jsonSchema(contract.data, 'output')) } } },
    };
    // One response per status; its description lists every catalogue text that status can carry.
    const messagesByStatus = new Map<number, string[]>();
    for (const key of errorsOf(contract)) {
      const { status, msg } = errorCatalogue[key];
      messagesByStatus.set(status, [...(messagesByStatus.get(status) ?? []), `"${msg}"`]);
    }
    for (const [status, messages] of messagesByStatus) {
      responses[status] = {
        description: messages.join('; '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      };
    }
    const pathItem = paths[path] ?? {};
    paths[path] = pathItem;
    pathItem[contract.method.toLowerCase()] = {
      operationId: contract.id,
      summary: contract.summary,
      tags: [contract.path.split('/')[2]],
      security: contract.caller === 'public' ? [] : [{ [contract.caller === 'staff' ? 'staffToken' : 'userToken']: [] }],
      ...(contract.staffRoles ? { 'x-staff-roles': contract.staffRoles } : {}),
      parameters,
      ...(contract.binaryBody
        ? {
            requestBody: {
              required: true,
              description: `${contract.binaryBody.description} At most ${contract.binaryBody.maxBytes} bytes.`,
              content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
            },
          }
        : {}),
      ...(contract.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(contract.body, 'input') } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Keel API',
      version: '0.1.0',
      description:
        'Every answer is the envelope { code, msg, data } with the HTTP status equal to code. msg is the stable English catalogue text.',
    },
    paths,
    components: {
      securitySchemes: {
        userToken: { type: 'http', scheme: 'bearer', description: 'User session token from /home/auth/login' },
        staffToken: { type: 'http', scheme: 'bearer', description: 'Staff session token from /home/admin/auth/login' },
      },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['code', 'msg', 'data'],
          properties: { code: { type: 'integer' }, msg: { type: 'string', enum: Object.values(errorCatalogue).map((e) => e.msg) }, data: {} },
        },
      },
    },
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A readable API reference page rendered from the same contracts, with no script at all. */
export function renderApiReference(contracts: readonly Contract[] = allContracts): string {
  const sections = contracts
    .map((contract) => {
      const errors = errorsOf(contract)
        .map((key) => `<li><code>${errorCatalogue[key].status}</code> ${escapeHtml(errorCatalogue[key].msg)}</li>`)
        .join('');
      const block = (title: string, schema: z.ZodType | undefined, io: 'input' | 'output') =>
        schema ? `<h4>${title}</h4><pre>${escapeHtml(JSON.stringify(jsonSchema(schema, io), null, 2))}</pre>` : '';
      const who =
        contract.caller === 'public' ? 'anyone' : contract.caller === 'user' ? 'a logged-in user' : `staff${contract.staffRoles ? ` (${contract.staffRoles.join(', ')})` : ''}`;
      return `<section id="${escapeHtml(contract.id)}">
  <h3><span class="m m-${contract.method}">${contract.method}</span> <code>${escapeHtml(contract.path)}</code></h3>
  <p>${escapeHtml(contract.summary)} <em>Caller: ${escapeHtml(who)}.</em></p>
  ${block('Path parameters', contract.params, 'input')}${block('Query', contract.query, 'input')}${block('Body', contract.body, 'input')}
  ${block('Answer data', contract.data, 'output')}
  <h4>Errors</h4><ul>${errors}</ul>
</section>`;
    })
    .join('\n');
  const index = contracts
    .map((c) => `<li><a href="#${escapeHtml(c.id)}"><b>${c.method}</b> ${escapeHtml(c.path)}</a></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Keel API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:0 auto;padding:1rem;color:#0f172a}
pre{background:#f1f5f9;padding:.75rem;overflow:auto;border-radius:6px;font-size:13px}
section{border-top:1px solid #cbd5e1;padding-top:.5rem;margin-top:1.5rem}
.m{display:inline-block;min-width:4em;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:0 .4em}
.m-GET{background:#2563eb}.m-POST{background:#16a34a}.m-PUT{background:#d97706}.m-DELETE{background:#dc2626}
</style></head><body>
<h1>Keel API reference</h1>
<p>Every answer is <code>{ code, msg, data }</code>; the HTTP status equals <code>code</code>. Send the session token as
<code>Authorization: Bearer &lt;token&gt;</code>. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>
<ul>${index}</ul>
${sections}
</body></html>`;
}
