import { createHash, randomUUID } from 'node:crypto';
import { allContracts, type Contract, errorCatalogue, errorKeyFromMsg, MAX_ID, staffRoles } from '@keel/contracts';
import fc from 'fast-check';
import sharp from 'sharp';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAd, trader } from '../../helpers/p2p.ts';
import { registeredRoutes, routeKey } from '../../helpers/routes.ts';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { testDbKind } from '../../helpers/test-db.ts';
import { bindAddress, call, fund, TEST_XPUB } from '../../helpers/wallet.ts';

// Issue 13, defect 4: the contract-driven fuzz test. For every contract of the API, every field of
// its body, query and params gets generated bad values (fast-check, fixed seed) while the other
// fields hold valid ones, sent as the right caller. Every answer must be a 4xx catalogue envelope
// ({code, msg, data}, code = HTTP status, msg from the catalogue) — a 500 fails, naming the
// contract, the field and the value — and a refused request must change nothing in the database.
//
// A generated value the contract's own schema accepts is valid input as far as the contract goes
// (an odd but allowed remark, an id that names nothing): the use case decides, and its answer may
// be a success. Such a request is fenced: what the refused requests before it left is checked just
// before it, and the comparison starts afresh after a success. A value the schema refuses must
// never be answered with a success. After each round both callers must still be logged in, so no
// round can make the rest of the file test nothing but a 401.

/** Generated values per field on top of the fixed list of its kind; keeps the file fast on both databases. */
const RANDOM_VALUES_PER_FIELD = 3;
/** The app's body limit in this file: small, so a body over it is cheap to send. */
const BODY_LIMIT_BYTES = 65_536;
/** The one round of requests that may be answered 401: the one that breaks the Authorization header. */
const AUTHORIZATION_ROUND = 'header Authorization';

type Schema = z.ZodType;
type Path = (string | number)[];

interface SchemaDef {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  entries?: Record<string, string | number>;
  values?: unknown[];
  checks?: { _zod: { def: { check: string; format?: string; pattern?: RegExp; maximum?: number; minimum?: number } } }[];
}

// zod 4 keeps each schema's definition in `_zod.def`; the walker reads only what it needs.
const defOf = (schema: Schema) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/default/nullable wrappers, and whether the field may be left out. */
function unwrap(schema: Schema): { core: Schema; optional: boolean } {
  let core = schema;
  let optional = false;
  while (WRAPPERS.has(defOf(core).type)) {
    const { type } = defOf(core);
    if (type === 'optional' || type === 'default' || type === 'prefault' || type === 'catch') optional = true;
    core = defOf(core).innerType!;
  }
  return { core, optional };
}

/** string, number, boolean, enum, literal, array, object, … (a pipe is the kind of what goes in). */
function kindOf(schema: Schema): string {
  const def = defOf(unwrap(schema).core);
  return def.type === 'pipe' ? kindOf(def.in!) : def.type;
}

/** Length bounds and patterns of a string schema, through pipes. */
function stringRules(schema: Schema): { max?: number; min?: number; patterns: RegExp[] } {
  const def = defOf(unwrap(schema).core);
  if (def.type === 'pipe') {
    const [a, b] = [stringRules(def.in!), stringRules(def.out!)];
    return { max: a.max ?? b.max, min: Math.max(a.min ?? 0, b.min ?? 0), patterns: [...a.patterns, ...b.patterns] };
  }
  const rules: { max?: number; min?: number; patterns: RegExp[] } = { patterns: [] };
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'max_length') rules.max = c.maximum;
    if (c.check === 'min_length') rules.min = c.minimum;
    if (c.check === 'string_format' && c.format === 'regex' && c.pattern) rules.patterns.push(c.pattern);
  }
  return rules;
}

interface Slot {
  path: Path;
  schema: Schema;
}

/** Every field of a part, nested ones too (an array's element as index 0). */
function slotsOf(schema: Schema, path: Path = []): Slot[] {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (def.type === 'object') return Object.entries(def.shape!).flatMap(([key, child]) => [{ path: [...path, key], schema: child }, ...slotsOf(child, [...path, key])]);
  if (def.type === 'array') return [{ path: [...path, 0], schema: def.element! }, ...slotsOf(def.element!, [...path, 0])];
  return [];
}

const nameOf = (path: Path) => [...path].reverse().find((each): each is string => typeof each === 'string') ?? '';
const isIdName = (name: string) => name === 'id' || /Id$/.test(name);

// ---------------------------------------------------------------------------------------------
// Valid values: what the other fields hold while one is fuzzed.

/** Real values by field name, filled in by the set-up (ids of records the callers own, and the like). */
const fixtures: Record<string, unknown[]> = {
  amount: ['1'],
  price: ['85.50'],
  min: ['10'],
  max: ['100'],
  total: ['100'],
  remaining: ['50'],
  quantity: ['10'],
  fiat: ['INR'],
  contact: ['UPI fuzz@bank'],
  symbol: ['BTC/USDT'],
  symbols: ['BTC/USDT'],
  email: ['fuzz@example.com'],
  phone: ['+491701234567'],
  contactPhone: ['+491701234567'],
  target: ['fuzz@example.com'],
  code: ['123456'],
  totp: ['123456'],
  totpCode: ['123456'],
  password: ['secret12'],
  confirmPassword: ['secret12'],
  oldPassword: ['secret12'],
  loginPassword: ['secret12'],
  paymentPassword: ['135790'],
  confirmPaymentPassword: ['135790'],
  oldPaymentPassword: ['135790'],
  txHash: ['ab'.repeat(32)],
  realName: ['Fuzz Tester'],
  bankName: ['Fuzz Bank'],
  bankAccount: ['123456789'],
  ifsc: ['SBIN0001234'],
  country: ['DE'],
  idNumber: ['AB123456'],
  address: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'Main street 1'],
  occupation: ['engineer'],
  income: ['10000 a year'],
  nickname: ['fuzzer'],
  reason: ['a fuzz reason'],
  note: ['a fuzz note'],
  text: ['hello'],
  label: ['fuzz'],
  value: ['@fuzzer'],
  version: [1],
  cycleSeconds: [60],
  channel: ['USDT-TRC20'],
  network: ['tron'],
};

const GENERIC: Record<string, unknown[]> = {
  string: ['fuzz sample', 'abc123', 'x1'],
  number: [1, 60, 15, 0, 100],
  boolean: [true, false],
};

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** A value the field's own schema accepts, or an error naming the field (then add a fixture). */
function validValue(schema: Schema, name: string, where: string): unknown {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (def.type === 'object') return validObject(core, where);
  if (def.type === 'array') return [validValue(def.element!, name, where)];
  const kind = kindOf(core);
  const candidates: unknown[] = [...(fixtures[name] ?? []), ...(name.endsWith('UploadId') ? (fixtures.uploadId ?? []) : [])];
  if (kind === 'enum') candidates.push(...Object.values(def.entries ?? {}));
  else if (kind === 'literal') candidates.push(...(def.values ?? []));
  else candidates.push(...(GENERIC[kind] ?? []));
  const accepted = (candidate: unknown) => core.safeParse(candidate).success;
  const found = candidates.find(accepted) ?? (kind === 'string' ? matchingSample(stringRules(core).patterns, where, accepted) : undefined);
  if (found === undefined) throw new Error(`no valid value for ${where}: add a fixture for "${name}"`);
  return found;
}

/** A string generated from the field's own patterns (fast-check cannot read every pattern, e.g. \p{…}). */
function matchingSample(patterns: RegExp[], where: string, accepted: (candidate: unknown) => boolean): string | undefined {
  for (const pattern of patterns) {
    try {
      const found = fc.sample(fc.stringMatching(pattern), { seed: seedOf(where), numRuns: 30 }).find(accepted);
      if (found !== undefined) return found;
    } catch {
      // a pattern fast-check cannot generate from: try the next one
    }
  }
  return undefined;
}

/** The required fields of an object with valid values (optional ones are left out unless a contract override sets them). */
function validObject(schema: Schema, where: string): Record<string, unknown> {
  const shape = defOf(unwrap(schema).core).shape!;
  const object: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(shape)) {
    if (!unwrap(child).optional) object[key] = validValue(child, key, `${where}.${key}`);
  }
  return object;
}

/** Where a contract needs more than each field valid on its own (a refine across fields, or a depth worth reaching). */
const overrides: Record<string, Partial<Record<'body' | 'query' | 'params', Record<string, unknown>>>> = {
  'auth.register': { body: { username: 'fuzzbase01' } },
  'auth.login': { body: { account: 'fuzzlogin01' } },
  'admin.login': { body: { username: 'fuzzlogin01', password: 'staffpass1' } },
  'assets.transfer': { body: { toAccount: 'fiat' } },
  // A house correction: its body names a house account and no user (the user variant needs a user id that exists).
  'admin.corrections.propose': { body: { target: 'house', houseAccount: 'earn_treasury', amount: '1', reason: 'Fuzz: funding the earn treasury' } },
  'assets.swap.quote': { body: { fromAsset: 'USDT', toAsset: 'BTC' } },
  'p2p.chatSend': { body: { text: 'hello' } },
  'wallet.deposit': { body: { channel: 'USDT-TRC20' } },
  'wallet.depositAddress': { query: { channel: 'USDT-TRC20' } },
  'user.paymentPassword': { body: { oldPaymentPassword: '135790' } },
  // A contact value is checked by its kind (ADR 0027): a Telegram handle for the fixture's value.
  'user.contactMethods': { body: { methods: [{ kind: 'telegram', value: '@fuzzer' }] } },
};

// ---------------------------------------------------------------------------------------------
// Bad values. A body value is raw JSON text (so 1e999 or a 30-digit number can be sent as such);
// query and path values are strings; `ABSENT` leaves the field out.

const ABSENT = Symbol('absent');
type BodyValue = string | typeof ABSENT;

const json = (value: unknown) => JSON.stringify(value);
const CONTROL_CHARACTERS = [0x00, 0x01, 0x07, 0x08, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x85, 0x9b];
const controlCharacter = fc.constantFrom(...CONTROL_CHARACTERS).map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Wrong JSON types, for any field. */
const WRONG_TYPES = ['null', 'true', '0', '1.5', '[]', '["x"]', '{}'];

function badStrings(sample: string, rules: { max?: number }, name: string, seed: number): string[] {
  const fixed = [
    '',
    ' ',
    '\u0000',
    `${sample}\u0000`,
    `${sample}\u001b[31m`,
    `${sample}\u007f`,
    `${sample}\u0085`,
    '\ud800',
    `${sample}\udfff`,
    `\u202e${sample}`,
    'x'.repeat(20_000),
    '<script>alert(1)</script>',
    "' OR '1'='1",
    '9223372036854775808',
    '-1',
    '1e309',
    'NaN',
    '١٢٣',
    '🙂',
  ];
  if (rules.max !== undefined) fixed.push(`${sample}${'y'.repeat(rules.max)}`);
  if (isIdName(name)) fixed.push('9999999999999999999', '9'.repeat(40), 'a'.repeat(19), '0', '01', '1.0', '0x1', MAX_ID.toString());
  const random = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 24 }),
    fc.tuple(fc.nat({ max: sample.length }), controlCharacter).map(([at, control]) => sample.slice(0, at) + control + sample.slice(at)),
    fc.tuple(fc.nat({ max: sample.length }), loneSurrogate).map(([at, half]) => sample.slice(0, at) + half + sample.slice(at)),
    fc.bigInt({ min: MAX_ID + 1n, max: 10n ** 30n }).map(String),
  );
  return [...fixed, ...fc.sample(random, { seed, numRuns: RANDOM_VALUES_PER_FIELD })];
}

function badNumbers(seed: number): BodyValue[] {
  const fixed = ['-1', '-0', '0.1', '1e308', '1e999', '-1e999', '1e-999', '9007199254740993', '123456789012345678901234567890', '"1"', '"NaN"', '""'];
  const random = fc.oneof(
    fc.double().map(json),
    fc.integer().map(json),
    fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  );
  return [...fixed, ...fc.sample(random, { seed, numRuns: RANDOM_VALUES_PER_FIELD })];
}

/** Bad values for one body field, as raw JSON text. */
function badBodyValues(slot: Slot, sample: unknown, seed: number): BodyValue[] {
  const { core, optional } = unwrap(slot.schema);
  const kind = kindOf(core);
  const name = nameOf(slot.path);
  const values: BodyValue[] = [...WRONG_TYPES];
  if (!optional) values.push(ABSENT);
  if (kind === 'string') values.push(...badStrings(String(sample), stringRules(core), name, seed).map(json));
  else if (kind === 'number') values.push(...badNumbers(seed));
  else if (kind === 'enum' || kind === 'literal') {
    const options = kind === 'enum' ? Object.values(defOf(core).entries ?? {}) : (defOf(core).values ?? []);
    const first = String(options[0]);
    values.push(...[first.toUpperCase(), ` ${first}`, `${first}\u0000`, `${first} `, '', 'other', '"true"', JSON.stringify([options[0]])].map((each) => (each.startsWith('"') || each.startsWith('[') ? each : json(each))));
    values.push(...fc.sample(fc.string({ maxLength: 12 }).filter((text) => !options.includes(text)).map(json), { seed, numRuns: RANDOM_VALUES_PER_FIELD }));
  } else if (kind === 'boolean') values.push('"true"', '1', '"yes"');
  else if (kind === 'array') {
    const element = json(sample === undefined ? 'x' : (sample as unknown[])[0]);
    values.push('"x"', '[null]', '[1]', '[{}]', '["\\u0000"]', `[${Array.from({ length: 60 }, () => element).join(',')}]`, `[${element},${element}]`, `${'['.repeat(200)}${']'.repeat(200)}`, `[${Array.from({ length: 5000 }, () => '1').join(',')}]`);
  } else if (kind === 'object') values.push('"x"', '[{}]', '{"unknown":"\\u0000"}');
  return values;
}

/** Bad values for a query or path field: strings only (a query key may also repeat). */
function badTextValues(slot: Slot, sample: unknown, seed: number): (string | string[] | typeof ABSENT)[] {
  const { core, optional } = unwrap(slot.schema);
  const kind = kindOf(core);
  const name = nameOf(slot.path);
  const values: (string | string[] | typeof ABSENT)[] = badStrings(String(sample ?? 'x'), kind === 'string' ? stringRules(core) : {}, name, seed);
  if (kind === 'number') values.push('-1', '0', '0.5', '1e3', '1e309', '-1e309', '99999999999999999999999', '0x10', 'NaN', '-Infinity');
  if (kind === 'enum') {
    const first = String(Object.values(defOf(core).entries ?? {})[0]);
    values.push(first.toUpperCase(), `${first} `, `${first}\u0000`);
  }
  values.push([String(sample ?? 'x'), String(sample ?? 'x')], ['\u0000', 'x']);
  if (!optional) values.push(ABSENT);
  return values;
}

/** Path segments that are not a value encoded, but broken encodings as they arrive on the wire. */
const RAW_PATH_SEGMENTS = ['%', '%zz', '%00', '%C0%80', '%ED%A0%80', '%FF', '..', '.', '%2e%2e', `${'9'.repeat(150)}`];

/** Percent-encoding that also writes a lone surrogate (as the bytes a broken client would send). */
function encodeLoosely(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = text.charCodeAt(index + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(index, index + 2));
      index += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(text[index]!);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Requests and answers.

interface Caller {
  user: string;
  staff: string;
}

interface Request {
  params: Record<string, string>;
  /** Path segments sent as they are (already encoded, or broken on purpose). */
  rawParams?: Record<string, string>;
  query: Record<string, string | string[]>;
  /** The body as sent (JSON text unless `contentType` says otherwise); undefined: no body. */
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string | undefined>;
}

function urlOf(contract: Contract, request: Request): string {
  const path = contract.path.replace(/:([A-Za-z]+)/g, (_, key: string) => request.rawParams?.[key] ?? encodeLoosely(request.params[key] ?? ''));
  const pairs = Object.entries(request.query).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((each) => `${encodeURIComponent(key)}=${encodeLoosely(each)}`));
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/** Whether the contract's schemas accept this request (then the handler runs, and a success is allowed). */
function contractAccepts(contract: Contract, request: Request): boolean {
  if (request.rawParams && Object.keys(request.rawParams).length > 0) return false;
  if (contract.params && !contract.params.safeParse(request.params).success) return false;
  // A lone surrogate in the query goes out as bytes that are not UTF-8; what the server reads of them is its parser's business.
  const undecodable = Object.values(request.query).flat().some((value) => /[\ud800-\udfff]/u.test(value));
  if (contract.query && !undecodable && !contract.query.safeParse(request.query).success) return false;
  if (request.body === undefined) return !contract.body || contract.body.safeParse(undefined).success;
  // What Fastify makes of the body: JSON (refusing prototype keys), text, bytes, or a refusal.
  const contentType = request.contentType ?? 'application/json';
  let parsed: unknown;
  if (request.body.length > BODY_LIMIT_BYTES) return false;
  if (contentType === 'application/json') {
    if (/"(__proto__|constructor)"\s*:/.test(String(request.body))) return false;
    try {
      parsed = JSON.parse(String(request.body));
    } catch {
      return false;
    }
  } else if (contentType === 'text/plain') parsed = String(request.body);
  else if (/^(application\/octet-stream|image\/)/.test(contentType)) parsed = request.body;
  else return false;
  // A contract without a body ignores one; a binary one reads bytes, not JSON.
  if (contract.binaryBody) return Buffer.isBuffer(parsed);
  return !contract.body || contract.body.safeParse(parsed).success;
}

interface Finding {
  contract: string;
  field: string;
  value: string;
  status: number;
  problem: string;
  answer: string;
}

const stats = { requests: 0, accepted: 0, succeeded: 0, byDb: testDbKind };

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : value === ABSENT ? '(absent)' : JSON.stringify(value);
  return (text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text).replace(/[\p{Cc}\p{Cs}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function safeMsg(body: string): string {
  try {
    return String((JSON.parse(body) as { msg?: unknown }).msg);
  } catch {
    return '';
  }
}

/** What is wrong with an answer, or null: a catalogue 4xx, or (for input the contract accepts) a success. */
function problemOf(contract: Contract, field: string, accepted: boolean, response: { statusCode: number; body: string; headers: Record<string, unknown> }): string | null {
  const status = response.statusCode;
  if (status === 500) return 'server error';
  // A 5xx the contract declares (the market has no price) is an answer; any other is a failure.
  if (status > 500 && !contract.errors.includes(errorKeyFromMsg(safeMsg(response.body)) ?? '')) return 'server error';
  // Only the round that breaks the Authorization header may see a 401; anywhere else the test lost its caller.
  if (status === 401 && field !== AUTHORIZATION_ROUND) return 'the caller is not logged in any more';
  if (status < 400 && !accepted) return 'a success for input the contract refuses';
  if (status < 400 && contract.binaryAnswer) return null;
  let body: { code?: unknown; msg?: unknown; data?: unknown };
  try {
    body = JSON.parse(response.body);
  } catch {
    return 'not a JSON envelope';
  }
  if (body.code !== status || typeof body.msg !== 'string' || !('data' in body)) return 'not the {code, msg, data} envelope with code = HTTP status';
  if (status >= 400) {
    const key = errorKeyFromMsg(body.msg);
    if (!key || errorCatalogue[key].status !== status) return `"${body.msg}" is not a catalogue error of status ${status}`;
  }
  return status >= 300 && status < 400 ? `status ${status}` : null;
}

// ---------------------------------------------------------------------------------------------
// "Change nothing". Two instruments on the test database:
// - a snapshot: every table's row count and a hash of its rows (ledger balances included), taken
//   at the start and end of each contract's round;
// - a write counter: a row trigger on every table counts committed row changes, so a request the
//   contract accepts (it may succeed) is fenced by two cheap reads instead of two snapshots.
// Bookkeeping a refused request may well write is left out: idempotency keys, failure counters, the
// audit log, and the minute a staff session was last seen.

const BOOKKEEPING_TABLES = /idempotency|failure|attempt|throttle|audit|^fuzz_/;
const BOOKKEEPING_COLUMNS = ['last_seen_at'];

let watchedTables: string[] = [];

async function installWriteCounter(t: TestApp) {
  const columns = await t.db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const row of columns) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
  watchedTables = [...byTable.keys()].filter((name) => !BOOKKEEPING_TABLES.test(name));
  await t.db.exec(`CREATE TABLE fuzz_row_writes (n bigint NOT NULL); INSERT INTO fuzz_row_writes VALUES (0);
    CREATE FUNCTION fuzz_count_row_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE fuzz_row_writes SET n = n + 1; RETURN NULL; END $$;`);
  for (const table of watchedTables) {
    const tracked = byTable.get(table)!.filter((column) => !BOOKKEEPING_COLUMNS.includes(column));
    const update = tracked.length < byTable.get(table)!.length ? `UPDATE OF ${tracked.map((column) => `"${column}"`).join(', ')}` : 'UPDATE';
    await t.db.exec(`CREATE TRIGGER fuzz_count_row_write AFTER INSERT OR DELETE OR ${update} ON "${table}" FOR EACH ROW EXECUTE FUNCTION fuzz_count_row_write()`);
  }
}

async function rowWrites(t: TestApp): Promise<string> {
  const [row] = await t.db.query<{ n: string }>('SELECT n::text AS n FROM fuzz_row_writes');
  return row!.n;
}

async function snapshot(t: TestApp): Promise<Record<string, string>> {
  const hidden = BOOKKEEPING_COLUMNS.map((column) => `'${column}'`).join(', ');
  const rows = await t.db.query<{ name: string; state: string }>(
    watchedTables
      .map(
        (name) =>
          `SELECT '${name}' AS name, count(*)::text || ':' || md5(coalesce(string_agg((to_jsonb(x) - ARRAY[${hidden}]::text[])::text, '|' ORDER BY (to_jsonb(x) - ARRAY[${hidden}]::text[])::text), '')) AS state FROM "${name}" x`,
      )
      .join(' UNION ALL '),
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.state]));
}

// ---------------------------------------------------------------------------------------------

let t: TestApp;
const caller: Caller = { user: '', staff: '' };
const findings: Finding[] = [];
const startedAtMs = Date.now();

beforeAll(async () => {
  t = await createTestApp({
    DEPOSIT_XPUB_TRON: TEST_XPUB,
    DEPOSIT_XPUB_BITCOIN: TEST_XPUB,
    WITHDRAWAL_DAILY_COUNT: '1000',
    BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
  });
  caller.staff = `Bearer ${await createStaff(t.app, t.db, 'fuzzstaff01', [...staffRoles])}`;
  await createStaff(t.app, t.db, 'fuzzlogin01', ['content']);
  await registerViaApi(t.app, 'fuzzlogin01');
  // The caller of user contracts owns one of each record a contract names by id.
  const user = await trader(t.app, t.db, 'fuzzuser01', '1000');
  const other = await trader(t.app, t.db, 'fuzzother01', '1000');
  // trader() funds the fiat account (P2P's); the withdrawal below draws on the coin account.
  await fund(t.db, user.userId, 'USDT', '1000');
  caller.user = user.token;
  const otherAd = await postAd(t.app, other, '300');
  fixtures.adId = [(await postAd(t.app, user, '100')).id];
  const placed = await call(t.app, 'POST', '/home/p2p/orders', user.token, { adId: otherAd.id, quantity: '20' });
  fixtures.orderId = [placed.data.id];
  fixtures.messageId = [(await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/chat`, user.token, { text: 'hello' })).data.id];
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
  const upload = await t.app.inject({ method: 'POST', url: '/home/uploads/image', headers: { authorization: user.token, 'content-type': 'image/png' }, payload: png });
  fixtures.uploadId = [(upload.json() as { data: { uploadId: string } }).data.uploadId];
  fixtures.addressId = [await bindAddress(t.app, t.db, user, 'tron', { usableNow: true })];
  fixtures.cardId = [
    (await call(t.app, 'POST', '/home/wallet/bank-cards', user.token, { realName: 'Fuzz Tester', phone: '+491701234567', bankName: 'Fuzz Bank', bankAccount: '123456789', ifsc: 'SBIN0001234', email: 'fuzz@example.com' })).data.id,
  ];
  fixtures.withdrawalId = [(await call(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId: fixtures.addressId[0], amount: '10', paymentPassword: '135790' })).data.id];
  fixtures.depositId = [(await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount: '10', txHash: 'cd'.repeat(32) })).data.id];
  // A second session of the user, so no generated id can end the one the test calls with.
  const second = await call(t.app, 'POST', '/home/auth/login', null, { account: 'fuzzuser01', password: 'secret12', agreement: true });
  if (second.code !== 200) throw new Error(`second login: ${second.msg}`);
  const sessions = await call(t.app, 'GET', '/home/user/sessions', second.data.token);
  if (sessions.code !== 200) throw new Error(`sessions: ${sessions.msg}`);
  fixtures.sessionId = [sessions.data.items.find((each: { current: boolean }) => each.current).id];
  const [submission] = await t.db.query<{ id: bigint }>('SELECT id FROM verification_submissions WHERE user_id = $1', [user.userId]);
  fixtures.submissionId = [submission!.id.toString()];
  fixtures.userId = [other.userId];
  const [loginStaff] = await t.db.query<{ id: bigint }>(`SELECT id FROM staff WHERE username = 'fuzzlogin01'`);
  fixtures.staffId = [loginStaff!.id.toString()];
  for (const [key, value] of Object.entries(fixtures)) if (value.some((each) => each === undefined)) throw new Error(`set-up of fixture ${key} failed`);
  await installWriteCounter(t);
}, 120_000);

afterAll(async () => {
  const seconds = ((Date.now() - startedAtMs) / 1000).toFixed(1);
  console.info(
    `contract fuzz on ${stats.byDb}: ${stats.requests} requests to ${allContracts.length} contracts in ${seconds} s ` +
      `(${stats.accepted} the contracts accept, ${stats.succeeded} of them answered with a success); ${findings.length} bad answers`,
  );
  await t.close();
});

describe('contract-driven fuzz (issue 13)', () => {
  it('covers every registered API route: each has a contract, and each contract a route', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((route) => / \/home\//.test(route));
    const contracted = allContracts.map(routeKey);
    expect(registered.filter((route) => !contracted.includes(route))).toEqual([]);
    expect(contracted.filter((route) => !registered.includes(route))).toEqual([]);
  });

  for (const contract of allContracts as readonly Contract[]) {
    it(`${contract.id}: bad values in every field get a catalogue 4xx and change nothing`, async () => {
      const seed = seedOf(contract.id);
      const base = {
        params: contract.params ? { ...validObject(contract.params, `${contract.id}.params`), ...overrides[contract.id]?.params } : {},
        query: contract.query ? { ...validObject(contract.query, `${contract.id}.query`), ...overrides[contract.id]?.query } : {},
        body: contract.body ? { ...validObject(contract.body, `${contract.id}.body`), ...overrides[contract.id]?.body } : undefined,
      };
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = contract[part];
        if (schema && !schema.safeParse(base[part]).success) throw new Error(`the valid ${part} of ${contract.id} is refused by its contract: add an override`);
      }
      const authorization = contract.caller === 'user' ? caller.user : contract.caller === 'staff' ? caller.staff : undefined;
      let baseline = await snapshot(t);
      let writesBaseline = await rowWrites(t);
      const roundFindings: Finding[] = [];

      // A read changes nothing even when it runs (the round's last comparison says so), so only a
      // write the contract accepts is fenced by comparisons.
      const mayWrite = contract.method !== 'GET';
      const send = async (field: string, value: unknown, request: Request) => {
        const accepted = contractAccepts(contract, request);
        if (accepted && mayWrite && (await rowWrites(t)) !== writesBaseline) {
          // A request the contract accepts may succeed: what the refused ones before it left is checked first.
          roundFindings.push({ contract: contract.id, field, value: '(the requests before)', status: 0, problem: 'a refused request changed the database', answer: JSON.stringify(diff(baseline, await snapshot(t))) });
          writesBaseline = await rowWrites(t);
        }
        const headers: Record<string, string> = {};
        if (authorization) headers.authorization = authorization;
        if (contract.idempotent) headers['idempotency-key'] = randomUUID();
        for (const [key, headerValue] of Object.entries(request.headers ?? {})) {
          if (headerValue === undefined) delete headers[key];
          else headers[key] = headerValue;
        }
        if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
        const response = await t.app.inject({
          method: contract.method,
          url: urlOf(contract, request),
          headers,
          ...(request.body !== undefined ? { payload: request.body } : {}),
        });
        stats.requests += 1;
        if (accepted) stats.accepted += 1;
        if (response.statusCode < 300) stats.succeeded += 1;
        const problem = problemOf(contract, field, accepted, response);
        if (problem) roundFindings.push({ contract: contract.id, field, value: shown(value), status: response.statusCode, problem, answer: response.body.slice(0, 200) });
        if (accepted && mayWrite && response.statusCode < 300) {
          baseline = await snapshot(t);
          writesBaseline = await rowWrites(t);
        }
      };

      const bodyText = (body: Record<string, unknown> | undefined, path: Path, value: BodyValue) => {
        const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
        let node: Record<string | number, unknown> = copy;
        for (const step of path.slice(0, -1)) {
          if (typeof node[step] !== 'object' || node[step] === null) node[step] = typeof path[path.indexOf(step) + 1] === 'number' ? [] : {};
          node = node[step] as Record<string | number, unknown>;
        }
        const last = path[path.length - 1]!;
        if (value === ABSENT) {
          if (Array.isArray(node)) node.splice(Number(last), 1);
          else delete node[last];
          return JSON.stringify(copy);
        }
        node[last] = '@@fuzz-slot@@';
        return JSON.stringify(copy).replace('"@@fuzz-slot@@"', value);
      };

      // 1. Every field of the body, the query and the path, one at a time.
      if (contract.body) {
        for (const slot of slotsOf(contract.body)) {
          const field = `body.${slot.path.join('.')}`;
          const sample = sampleAt(base.body, slot.path) ?? validValue(slot.schema, nameOf(slot.path), `${contract.id}.${field}`);
          for (const value of badBodyValues(slot, sample, seed ^ seedOf(field))) {
            await send(field, value, { params: base.params as Record<string, string>, query: base.query as Record<string, string>, body: bodyText(base.body, slot.path, value) });
          }
        }
      }
      for (const part of ['query', 'params'] as const) {
        const schema = contract[part];
        if (!schema) continue;
        for (const slot of slotsOf(schema)) {
          const key = String(slot.path[0]);
          const field = `${part}.${key}`;
          const sample = (base[part] as Record<string, unknown>)[key] ?? validValue(slot.schema, key, `${contract.id}.${field}`);
          const values: unknown[] = [...badTextValues(slot, sample, seed ^ seedOf(field)), ...(part === 'params' ? RAW_PATH_SEGMENTS.map((raw) => ({ raw })) : [])];
          for (const value of values) {
            const request: Request = { params: { ...(base.params as Record<string, string>) }, query: { ...(base.query as Record<string, string>) }, body: base.body ? JSON.stringify(base.body) : undefined };
            const target = request[part] as Record<string, string | string[]>;
            if (value === ABSENT) delete target[key];
            else if (typeof value === 'object' && value !== null && 'raw' in value) request.rawParams = { [key]: (value as { raw: string }).raw };
            else if (part === 'params' && Array.isArray(value)) continue;
            else target[key] = value as string | string[];
            await send(field, value, request);
          }
        }
      }

      // 2. Bodies that are not what the contract reads: unparseable, not JSON, the wrong content type.
      if (contract.method !== 'GET') {
        const valid = contract.body ? JSON.stringify(base.body) : '{}';
        const unparseable: [string, string][] = [
          ['application/json', '{'],
          ['application/json', `${valid.slice(0, -1)}`],
          ['application/json', '{"__proto__":{"polluted":true}}'],
          ['application/json', '{"constructor":{"prototype":{"polluted":true}}}'],
          ['application/json', `{"x":"${'y'.repeat(70_000)}"}`],
          ['application/xml', '<a/>'],
          ['application/x-www-form-urlencoded', 'a=1'],
        ];
        // These parse, so only a contract that reads a JSON body refuses them (one without a body ignores a body).
        const parseable: [string, string | Buffer][] = [
          ['application/json', 'null'],
          ['application/json', '[]'],
          ['application/json', '"text"'],
          ['application/json', `[${valid}]`],
          // Unknown fields (zod drops them) next to a field that is wrong, so the request stays refused.
          ['application/json', JSON.stringify({ ...base.body, [Object.keys(base.body ?? { x: 0 })[0] ?? 'x']: null, unknownField: 'x', 'with space': [], nested: { deep: { deeper: {} } } })],
          ['application/json', `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`],
          ['text/plain', valid],
          ['application/octet-stream', Buffer.from(valid)],
          ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0])],
        ];
        if (contract.binaryBody) parseable.push(['application/octet-stream', Buffer.alloc(0)], ['image/gif', Buffer.from('GIF89a not really')]);
        for (const [contentType, body] of [...unparseable, ...(contract.body || contract.binaryBody ? parseable : [])]) {
          await send(`body (${contentType})`, typeof body === 'string' ? body : `${body.length} bytes`, { params: base.params as Record<string, string>, query: base.query as Record<string, string>, body, contentType });
        }
      }

      // 3. Valid input with a broken header: a missing or malformed Idempotency-Key, or a token that is not the caller's.
      const validRequest = (): Request => ({
        params: base.params as Record<string, string>,
        query: base.query as Record<string, string>,
        body: contract.body ? JSON.stringify(base.body) : undefined,
      });
      if (contract.idempotent) {
        for (const key of [undefined, 'short', 'k'.repeat(101), 'has spaces\u00ffin it']) {
          await send('header Idempotency-Key', key ?? '(absent)', { ...validRequest(), headers: { 'idempotency-key': key } });
        }
      }
      if (authorization) {
        const otherKind = contract.caller === 'user' ? caller.staff : caller.user;
        for (const token of [undefined, 'Bearer x', `Bearer ${'t'.repeat(5000)}\u00ff`, otherKind]) {
          await send(AUTHORIZATION_ROUND, token ?? '(absent)', { ...validRequest(), headers: { authorization: token } });
        }
      }

      const after = await snapshot(t);
      if (JSON.stringify(after) !== JSON.stringify(baseline) || (await rowWrites(t)) !== writesBaseline) roundFindings.push({ contract: contract.id, field: '(round)', value: '', status: 0, problem: 'a refused request changed the database', answer: JSON.stringify(diff(baseline, after)) });
      // A round must leave its callers logged in, or every later round would test nothing but a 401.
      if ((await t.app.inject({ url: '/home/user/me', headers: { authorization: caller.user } })).statusCode !== 200) {
        roundFindings.push({ contract: contract.id, field: '(round)', value: '', status: 0, problem: "the round ended the user caller's session", answer: '' });
        caller.user = (await call(t.app, 'POST', '/home/auth/login', null, { account: 'fuzzuser01', password: 'secret12', agreement: true })).data.token;
      }
      if ((await t.app.inject({ url: '/home/admin/me', headers: { authorization: caller.staff } })).statusCode !== 200) {
        roundFindings.push({ contract: contract.id, field: '(round)', value: '', status: 0, problem: "the round ended the staff caller's session", answer: '' });
        caller.staff = `Bearer ${await createStaff(t.app, t.db, `fuzzstaff${stats.requests}`, [...staffRoles])}`;
      }
      findings.push(...roundFindings);
      // One line per bad answer (an assertion diff would cut a long list short).
      const lines = roundFindings.map((each) => `${each.field} = ${each.value} → ${each.status} ${each.problem}: ${each.answer}`);
      expect(lines, `${contract.id}: ${lines.length} bad answers\n${lines.join('\n')}`).toEqual([]);
    });
  }
});

function sampleAt(object: unknown, path: Path): unknown {
  let node = object;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

function diff(before: Record<string, string>, after: Record<string, string>) {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
