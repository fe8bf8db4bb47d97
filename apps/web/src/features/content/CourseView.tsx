import type { ContentArticle } from '@keel/contracts';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { ChevronIcon } from '../../shared/ui/icons.tsx';
import { ContentArticleView } from './ContentArticleView.tsx';

/** A course: its introduction and its live lessons in order, each opening on the same route. */
function CourseLessons({ course }: { course: ContentArticle }) {
  const { t } = useI18n();
  const first = course.lessons[0];
  return (
    <section className="course-lessons" aria-labelledby="course-lessons-title">
      <h3 className="content-section-title" id="course-lessons-title">
        {t('web.content.course.lessons')}
      </h3>
      {course.lessons.length === 0 ? (
        <p className="muted">{t('web.content.course.noLessons')}</p>
      ) : (
        <>
          <ol className="course-lesson-list" data-testid="course-lessons">
            {course.lessons.map((lesson, index) => (
              <li key={lesson.id}>
                <Link to={`/course/detail/${lesson.id}`} className="list-link" data-testid={`course-lesson-${lesson.id}`}>
                  <span className="course-lesson-number" aria-hidden="true">
                    {index + 1}
                  </span>
                  <span className="list-link-label">{lesson.title}</span>
                  <ChevronIcon />
                </Link>
              </li>
            ))}
          </ol>
          {first && (
            <Link to={`/course/detail/${first.id}`} className="btn btn-primary btn-block" data-testid="course-start">
              {t('web.content.course.start')}
            </Link>
          )}
        </>
      )}
    </section>
  );
}

/** A lesson's way on: the previous and next lesson of its course, and back to the course. */
function LessonNav({ course }: { course: NonNullable<ContentArticle['course']> }) {
  const { t } = useI18n();
  return (
    <nav className="lesson-nav" aria-label={t('web.content.course.lessonNav')} data-testid="lesson-nav">
      <div className="lesson-nav-steps">
        {course.previousLessonId ? (
          <Link to={`/course/detail/${course.previousLessonId}`} className="btn btn-secondary" rel="prev" data-testid="lesson-previous">
            {t('web.content.course.previous')}
          </Link>
        ) : null}
        {course.nextLessonId && (
          <Link to={`/course/detail/${course.nextLessonId}`} className="btn btn-primary" rel="next" data-testid="lesson-next">
            {t('web.content.course.next')}
          </Link>
        )}
      </div>
      <Link to={`/course/detail/${course.id}`} className="lesson-back" data-testid="lesson-course">
        {t('web.content.course.backTo', { title: course.title })}
      </Link>
    </nav>
  );
}

/** `/course/detail/{id}`: a course with its lessons, or a lesson with its neighbours and its course. */
export function CourseView({ article }: { article: ContentArticle }) {
  return (
    <ContentArticleView article={article}>
      {article.kind === 'course' && <CourseLessons course={article} />}
      {article.kind === 'lesson' && article.course && <LessonNav course={article.course} />}
    </ContentArticleView>
  );
}
