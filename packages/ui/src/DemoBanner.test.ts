import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DemoBanner } from './DemoBanner.tsx';

describe('DemoBanner', () => {
  it('says it on a demo deployment, as a status screen readers announce', () => {
    expect(renderToStaticMarkup(createElement(DemoBanner, { demo: true, text: 'Demo: not real money' }))).toBe(
      '<div class="demo-banner" role="status" data-testid="demo-banner">Demo: not real money</div>',
    );
  });

  it('renders nothing when the deployment is not a demo (or has not said yet)', () => {
    expect(renderToStaticMarkup(createElement(DemoBanner, { demo: false, text: 'Demo: not real money' }))).toBe('');
  });

  it('puts the translated text as text, never as markup', () => {
    expect(renderToStaticMarkup(createElement(DemoBanner, { demo: true, text: '<b>تجريبي</b>' }))).toContain('&lt;b&gt;تجريبي&lt;/b&gt;');
  });
});
