import type { MessageArea } from './messages.ts';

/**
 * For the apps' build (a code-splitting group's `name`): puts an app's catalogue files of one
 * language into one chunk, `messages-<locale>`, so a language is one download (ADR 0024); the
 * user app's `tabs` and `more` parts of each language are two more, `messages-<locale>-tabs` and
 * `messages-<locale>-more` (ADR 0025).
 */
export function languageChunkOf(areas: readonly MessageArea[]): (moduleId: string) => string | null {
  const file = new RegExp(`catalogues[\\\\/](?:${areas.join('|')})[\\\\/]([\\w-]+)\\.json(?:\\?part=(start|tabs|more))?$`);
  return (moduleId) => {
    const [, locale, part] = file.exec(moduleId) ?? [];
    if (!locale) return null;
    // The user app's texts shown behind the login are later downloads (messages.ts).
    return part === 'tabs' || part === 'more' ? `messages-${locale}-${part}` : `messages-${locale}`;
  };
}
