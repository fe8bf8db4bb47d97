import type { MessageArea } from './messages.ts';

/**
 * For the apps' build (a code-splitting group's `name`): puts an app's catalogue files of one
 * language into one chunk, `messages-<locale>`, so a language is one download (ADR 0024); the
 * user app's `more` part of each language is a second, `messages-<locale>-more` (ADR 0025).
 */
export function languageChunkOf(areas: readonly MessageArea[]): (moduleId: string) => string | null {
  const file = new RegExp(`catalogues[\\\\/](?:${areas.join('|')})[\\\\/]([\\w-]+)\\.json(?:\\?part=(start|more))?$`);
  return (moduleId) => {
    const [, locale, part] = file.exec(moduleId) ?? [];
    if (!locale) return null;
    // The user app's texts shown behind the login are a second download (messages.ts).
    return part === 'more' ? `messages-${locale}-more` : `messages-${locale}`;
  };
}
