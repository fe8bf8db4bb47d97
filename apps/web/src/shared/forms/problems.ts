import {
  type ApiError,
  describeIssue,
  errorCatalogue,
  errorKeyFromMsg,
  type FieldProblem,
  type IssueLike,
  isValidationRule,
  ruleOfMessage,
} from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

/**
 * The pure half of the forms foundation (ADR 0027): how a problem travels in react-hook-form's
 * `FieldError.message` and how it becomes a message key. react-hook-form keeps one string per
 * field; the text is chosen only when shown, so a change of language re-words errors on screen.
 *
 * A field error's message is one of:
 * - `rule:<rule>` or `rule:<rule> {"minimum":6}` — a problem named by `describeIssue` (zod's own
 *   issues, through the resolver's error map) or by the server's "parameter error" fields;
 * - `server:<catalogue msg>` — a catalogue refusal that belongs to one field (shown translated);
 * - a contract's custom English message (a schema-level message zod keeps as written), or a
 *   catalogue `msg` a form's own rule uses (e.g. "passwords inconsistent"): both are looked up.
 */

const RULE = 'rule:';
const SERVER = 'server:';

export function encodeProblem(problem: FieldProblem): string {
  return problem.values ? `${RULE}${problem.rule} ${JSON.stringify(problem.values)}` : `${RULE}${problem.rule}`;
}

/** The message the resolver gives zod for an issue without a message of its own. */
export function issueMessage(issue: IssueLike): string {
  return encodeProblem(describeIssue(issue));
}

export function encodeServerMessage(msg: string): string {
  return `${SERVER}${msg}`;
}

/** What to show for a field error's message: a message key with its values, or a catalogue `msg`. */
export type FieldText = { key: MessageKey; values?: Record<string, number | string> } | { serverMsg: string };

export function fieldTextOf(message: string): FieldText {
  if (message.startsWith(RULE)) {
    const [rule, values] = splitRule(message.slice(RULE.length));
    return isValidationRule(rule) ? { key: messageKeyOf({ rule }), values } : { key: 'web.validation.invalid' };
  }
  if (message.startsWith(SERVER)) return { serverMsg: message.slice(SERVER.length) };
  const own = ruleOfMessage(message);
  if (own) return { key: messageKeyOf({ rule: own }) };
  if (errorKeyFromMsg(message)) return { serverMsg: message };
  return { key: 'web.validation.invalid' };
}

function splitRule(text: string): [string, Record<string, number | string> | undefined] {
  const space = text.indexOf(' ');
  if (space < 0) return [text, undefined];
  try {
    return [text.slice(0, space), JSON.parse(text.slice(space + 1)) as Record<string, number | string>];
  } catch {
    return [text.slice(0, space), undefined];
  }
}

/** Every rule's message is `web.validation.<rule>` in the 13 catalogues (a test checks each exists). */
export function messageKeyOf(problem: Pick<FieldProblem, 'rule'>): MessageKey {
  return `web.validation.${problem.rule}` as MessageKey;
}

/** `body.methods.0.value` → `methods.0.value`: where a server field is in a form of the body's shape. */
export function formPathOf(serverField: string): string {
  return serverField.replace(/^(body|query|params)(\.|$)/, '');
}

/** One field of a "parameter error" answer, as a form path and the field error's message. */
export interface ServerFieldProblem {
  path: string;
  message: string;
}

/**
 * How a refusal is shown: field problems (from "parameter error" `data.fields`, or a catalogue error
 * a form names as belonging to one field), and the catalogue message for the form's notice when
 * something is left over (null when every part found its field).
 */
export function refusalParts(
  error: ApiError,
  fieldErrors: Partial<Record<string, string>>,
  isField: (path: string) => boolean,
): { fields: ServerFieldProblem[]; notice: string | null } {
  const key = errorKeyFromMsg(error.message);
  if (key && key !== 'PARAMETER_ERROR' && fieldErrors[key] !== undefined) {
    return { fields: [{ path: fieldErrors[key], message: encodeServerMessage(error.message) }], notice: null };
  }
  if (key !== 'PARAMETER_ERROR') return { fields: [], notice: error.message };
  const listed = (error.data as { fields?: unknown } | null)?.fields;
  const fields: ServerFieldProblem[] = [];
  let leftOver = !Array.isArray(listed) || listed.length === 0;
  for (const entry of Array.isArray(listed) ? listed : []) {
    const field = typeof entry?.field === 'string' ? (entry.field as string) : '';
    const path = formPathOf(field);
    if (path === '' || !isField(path) || fields.some((each) => each.path === path)) {
      leftOver ||= path === '' || !isField(path);
      continue;
    }
    const text = typeof entry?.message === 'string' ? (entry.message as string) : '';
    const rule = ruleOfMessage(text);
    fields.push({ path, message: encodeProblem({ rule: rule ?? 'invalid' }) });
  }
  return { fields, notice: leftOver ? errorCatalogue.PARAMETER_ERROR.msg : null };
}
