import type { ContentArticle } from '@keel/contracts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { ArticleState, ContentArticleView } from './ContentArticleView.tsx';
import { contentPath } from './content-logic.ts';
import { useAbout, useContentItem } from './useContent.ts';

/**
 * One item on its detail page. An id of another kind (an announcement's id under
 * `/helpcenterdetail/…`) goes to that kind's page instead, so every item has one address.
 */
export function ContentDetail({
  itemId,
  kinds,
  render = (article) => <ContentArticleView article={article} />,
}: {
  itemId: string;
  kinds: readonly ContentArticle['kind'][];
  render?: (article: ContentArticle) => ReactNode;
}) {
  const state = useContentItem(itemId);
  const { article } = state;
  if (!article) return <ArticleState state={state} />;
  if (!kinds.includes(article.kind)) {
    const elsewhere = contentPath(article);
    if (elsewhere) return <Navigate to={elsewhere} replace />;
    return <ArticleState state={{ ...state, article: null, notFound: true }} />;
  }
  return <>{render(article)}</>;
}

/** The about page (/aboutus). */
export function AboutView() {
  const state = useAbout();
  if (!state.article) return <ArticleState state={state} />;
  return <ContentArticleView article={state.article} />;
}
