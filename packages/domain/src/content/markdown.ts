import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import {
  type ContentKind,
  type ContentProblem,
  contentFieldLimits,
  contentImagePath,
  contentControlCharacters,
  contentLinkAllowed,
  plainTextProblems,
  contentUrlScheme,
  contentScriptScheme,
} from './content.ts';

/**
 * The Markdown rules of content (issue 20, ADR 0044), apart from `content.ts` because they need a
 * Markdown parser: imported as `@keel/domain/content-markdown` by the server and by the editor's
 * form (a chunk of its own), never through `@keel/domain` or the contracts, so the apps' first
 * scripts do not carry the parser.
 */

interface MarkdownNode {
  type: string;
  url?: string;
  depth?: number;
  value?: string;
  children?: MarkdownNode[];
}

function parse(body: string): MarkdownNode {
  return fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as MarkdownNode;
}

/**
 * The problems of a Markdown body. Only CommonMark and GFM tables, strikethrough and autolinks are
 * published; raw HTML of any kind is refused (not stripped, so the editor sees what was wrong),
 * as are links with a scheme that runs code, images from anywhere but Keel's content images, and
 * level-1 headings (the page's title is the only one).
 */
export function markdownProblems(field: string, body: string, maxLength: number): ContentProblem[] {
  const problems: ContentProblem[] = [];
  if (body.trim() === '') problems.push({ field, problem: 'empty' });
  if (body.length > maxLength) return [...problems, { field, problem: 'too_long' }];
  if (contentControlCharacters.test(body)) problems.push({ field, problem: 'control_character' });
  const seen = new Set<ContentProblem['problem']>();
  const walk = (node: MarkdownNode) => {
    if (node.type === 'html') seen.add('html');
    if ((node.type === 'link' || node.type === 'definition') && node.url !== undefined) {
      if (contentScriptScheme.test(contentUrlScheme(node.url))) seen.add('script_url');
      else if (!contentLinkAllowed(node.url)) seen.add('link_not_allowed');
    }
    if (node.type === 'image' || node.type === 'imageReference') {
      if (node.type === 'imageReference' || node.url === undefined || !contentImagePath.test(node.url)) seen.add('image_not_allowed');
    }
    if (node.type === 'heading' && node.depth === 1) seen.add('heading_level');
    for (const child of node.children ?? []) walk(child);
  };
  walk(parse(body));
  for (const problem of seen) problems.push({ field, problem });
  return problems;
}

/** The words of a Markdown body without its markup, for the search index and list summaries. */
export function markdownPlainText(body: string): string {
  const words: string[] = [];
  const walk = (node: MarkdownNode) => {
    if ((node.type === 'text' || node.type === 'inlineCode') && node.value) words.push(node.value);
    for (const child of node.children ?? []) walk(child);
  };
  walk(parse(body));
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

/** Every problem of one translation: the title and summary as plain text, the body as Markdown. */
export function translationProblems(
  kind: ContentKind,
  translation: { title: string; summary: string; body: string },
): ContentProblem[] {
  return [
    ...plainTextProblems('title', translation.title, contentFieldLimits.title, true),
    ...plainTextProblems('summary', translation.summary, contentFieldLimits.summary, false),
    // A banner is its title and summary; its body may be empty.
    ...(kind === 'banner' && translation.body.trim() === ''
      ? []
      : markdownProblems('body', translation.body, contentFieldLimits.body)),
  ];
}

