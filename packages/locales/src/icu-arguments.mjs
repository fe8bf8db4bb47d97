// What an ICU message asks of its caller: its argument names, and its plural forms. Plain
// JavaScript so scripts/add-locale-keys.mjs (any Node, no TypeScript) checks keys by the same
// rules as the catalogue tests; the types are in icu-arguments.d.mts.
import IntlMessageFormat from 'intl-messageformat';

// The element kinds of @formatjs/icu-messageformat-parser's AST (its `TYPE` enum).
const ARGUMENT = 1;
const NUMBER = 2;
const DATE = 3;
const TIME = 4;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;

/** Parses a message as the apps format it (tags are text); throws on a broken message. */
export function parseMessage(text) {
  return new IntlMessageFormat(text, 'en', undefined, { ignoreTag: true }).getAst();
}

function walk(elements, visit) {
  for (const element of elements) {
    visit(element);
    if (element.type === SELECT || element.type === PLURAL) {
      for (const option of Object.values(element.options)) walk(option.value, visit);
    } else if (element.type === TAG) walk(element.children, visit);
  }
}

const kinds = { [ARGUMENT]: 'text', [NUMBER]: 'number', [DATE]: 'date', [TIME]: 'time', [SELECT]: 'select', [PLURAL]: 'plural' };

/** Each argument of a message and how it is used: `{name}` text, `{n, plural, …}` plural … */
export function argumentKinds(text) {
  const found = {};
  walk(parseMessage(text), (element) => {
    const kind = kinds[element.type];
    if (kind && !(element.value in found && kind === 'text')) found[element.value] = kind;
  });
  return found;
}

/** The names of the arguments a message takes, sorted and each once: `{name}`, `{n, plural, …}` … */
export function messageArguments(text) {
  return Object.keys(argumentKinds(text)).sort();
}

/** Every cardinal plural in a message: its argument and the CLDR categories it spells out (`=0` … left out). */
export function pluralsOf(text) {
  const plurals = [];
  walk(parseMessage(text), (element) => {
    if (element.type === PLURAL && element.pluralType !== 'ordinal') {
      plurals.push({ argument: element.value, categories: Object.keys(element.options).filter((key) => !key.startsWith('=')).sort() });
    }
  });
  return plurals;
}

/**
 * A message formatted as the apps would, with a sample value for each argument (7 for numbers and
 * plurals, `‹name›` for text): a `{` or `}` left in it means an argument was quoted away (ICU's
 * apostrophe rule: `'{name}'` is literal text) or not understood.
 */
export function formatSample(text, locale) {
  const values = Object.fromEntries(
    Object.entries(argumentKinds(text)).map(([name, kind]) => {
      if (kind === 'number' || kind === 'plural') return [name, 7];
      if (kind === 'date' || kind === 'time') return [name, new Date(0)];
      if (kind === 'select') return [name, 'other'];
      return [name, `‹${name}›`];
    }),
  );
  const language = `${locale.replace(/-pro$/, '')}-u-nu-latn`;
  return String(new IntlMessageFormat(text, language, undefined, { ignoreTag: true }).format(values));
}

/** The plural categories a language needs (CLDR, as this runtime's Intl knows them), `other` included. */
export function pluralCategoriesOf(locale) {
  const language = locale.replace(/-pro$/, '');
  return [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
}
