import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** Where Markdown may put an image: Keel's own content images only (the server refuses others too). */
const CONTENT_IMAGE = /^\/home\/content\/images\/[1-9][0-9]{0,18}$/;
/** A link's target as browsers read its scheme (they ignore whitespace and controls inside it). */
const scheme = (url: string) => url.replace(/[\p{Cc} ]/gu, '').toLowerCase();

export interface ContentMarkdownProps {
  markdown: string;
  /** How an in-app link (`/path`) is drawn: the user app passes react-router's Link, the preview a plain span. */
  renderInternalLink: (path: string, children: ReactNode) => ReactNode;
  /** Words read after an external link's text by screen readers, e.g. "(opens another site)". */
  externalLinkLabel: string;
  /** Prefix of content image addresses (the API's origin), '' when the app is served by the API. */
  imageBase?: string;
}

/**
 * A content body (issue 20, ADR 0044) as React elements. Raw HTML is never rendered (react-markdown
 * drops it; the server refuses it on the way in as well), links run no code, in-app links stay in
 * the app, outside links open a new tab without the opener and are marked as external (a ↗ and a
 * spoken label), images come only from Keel's content images, and wide tables scroll inside a
 * frame so a phone page never scrolls sideways. Shared by the user app and the editor's preview,
 * so the preview is what a reader sees.
 */
export function ContentMarkdown({ markdown, renderInternalLink, externalLinkLabel, imageBase = '' }: ContentMarkdownProps) {
  const components: Components = {
    a: ({ href, children }) => {
      const url = href ?? '';
      const clean = scheme(url);
      if (clean.startsWith('/') && !clean.startsWith('//')) return <>{renderInternalLink(url, children)}</>;
      if (clean.startsWith('https://') || clean.startsWith('http://') || clean.startsWith('mailto:')) {
        return (
          <a href={url} target="_blank" rel="noopener noreferrer external" className="content-external-link">
            {children}
            <span aria-hidden="true"> ↗</span>
            <span className="visually-hidden"> {externalLinkLabel}</span>
          </a>
        );
      }
      // Anything else (which the server does not accept) is shown as text, never as a link.
      return <span>{children}</span>;
    },
    img: ({ src, alt }) =>
      typeof src === 'string' && CONTENT_IMAGE.test(src) ? <img src={`${imageBase}${src}`} alt={alt ?? ''} loading="lazy" className="content-image" /> : null,
    table: ({ children }) => (
      <div className="content-table-frame">
        <table>{children}</table>
      </div>
    ),
    h1: ({ children }) => <h2>{children}</h2>,
  };
  return (
    <div className="content-body">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {markdown}
      </Markdown>
    </div>
  );
}
