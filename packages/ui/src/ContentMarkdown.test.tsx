import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContentMarkdown } from './ContentMarkdown.tsx';

const render = (markdown: string) =>
  renderToStaticMarkup(
    <ContentMarkdown markdown={markdown} externalLinkLabel="(opens another site)" renderInternalLink={(path, children) => <span data-internal={path}>{children}</span>} />,
  );

describe('ContentMarkdown', () => {
  it('never renders raw HTML', () => {
    const html = render('Hello <script>alert(1)</script> <img src=x onerror=alert(1)> <b>bold</b>');
    expect(html).not.toMatch(/<script|onerror|<b>/);
  });

  it('keeps in-app links in the app and marks outside links as external, without the opener', () => {
    expect(render('[rules](/assets/withdraw)')).toContain('<span data-internal="/assets/withdraw">rules</span>');
    const external = render('[PostgreSQL](https://www.postgresql.org/)');
    expect(external).toContain('href="https://www.postgresql.org/"');
    expect(external).toContain('target="_blank"');
    expect(external).toContain('rel="noopener noreferrer external"');
    expect(external).toContain('(opens another site)');
  });

  it('turns a link that would run code into text', () => {
    const html = render('[x](javascript:alert(1)) [y](//evil.example)');
    expect(html).not.toContain('javascript');
    expect(html).not.toContain('evil.example');
    expect(html).toContain('<span>x</span>');
  });

  it('shows only Keel’s content images and frames tables', () => {
    expect(render('![a](/home/content/images/3)')).toContain('<img src="/home/content/images/3" alt="a" loading="lazy"');
    expect(render('![a](https://evil.example/p.gif)')).not.toContain('<img');
    expect(render('| a | b |\n|---|---|\n| 1 | 2 |')).toMatch(/^<div class="content-body"><div class="content-table-frame"><table>/);
  });
});
