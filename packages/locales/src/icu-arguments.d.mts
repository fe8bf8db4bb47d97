/** Parses a message as the apps format it (tags are text); throws on a broken message. */
export declare function parseMessage(text: string): unknown[];
/** How a message uses an argument. */
export type ArgumentKind = 'text' | 'number' | 'date' | 'time' | 'select' | 'plural';
/** Each argument of a message and how it is used: `{name}` text, `{n, plural, …}` plural … */
export declare function argumentKinds(text: string): Record<string, ArgumentKind>;
/** The names of the arguments a message takes, sorted and each once. */
export declare function messageArguments(text: string): string[];
/** Every cardinal plural in a message: its argument and the CLDR categories it spells out (`=0` … left out). */
export declare function pluralsOf(text: string): { argument: string; categories: string[] }[];
/** A message formatted with a sample value per argument; a brace left in it means an argument was quoted away. */
export declare function formatSample(text: string, locale: string): string;
/** The plural categories a language needs (CLDR, as this runtime's Intl knows them), `other` included. */
export declare function pluralCategoriesOf(locale: string): string[];
