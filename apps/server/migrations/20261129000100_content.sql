-- Content (issue 20, ADR 0044): platform news, industry news, help articles in categories, courses
-- with ordered lessons, the about page and home banners. Language-independent facts live on the
-- item; each language's words on a translation row with its own search vector. Published items
-- are public. Content staff write; every write is audited (audit_log).
CREATE TABLE content_items (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind            text NOT NULL CHECK (kind IN ('announcement', 'industry_news', 'help', 'course', 'lesson', 'about', 'banner')),
  -- A stable name for items the demo seed writes (and for links between items); optional.
  slug            text UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,79}$'),
  category        text CHECK (category IN ('getting_started', 'account_security', 'wallet', 'trading', 'earn_loans', 'fees_limits')),
  parent_id       bigint REFERENCES content_items (id),
  sort_order      integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 100000),
  market_symbols  text[] NOT NULL DEFAULT '{}',
  link_path       text CHECK (link_path ~ '^/[A-Za-z0-9/_?=&.-]{0,199}$'),
  -- Industry news written for the demo is labelled as sample content wherever it is shown.
  sample          boolean NOT NULL DEFAULT false,
  status          text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'unpublished')),
  -- When a published item becomes visible; in the future = scheduled. Kept when unpublished.
  publish_at      timestamptz,
  -- Bumped by every change of the item or one of its translations: part of the readers' ETag.
  revision        integer NOT NULL DEFAULT 1,
  created_by      bigint REFERENCES staff (id),
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  CHECK ((kind = 'help') = (category IS NOT NULL)),
  CHECK ((kind = 'lesson') = (parent_id IS NOT NULL)),
  CHECK (kind = 'banner' OR link_path IS NULL),
  CHECK (kind = 'industry_news' OR NOT sample),
  CHECK (status = 'draft' OR publish_at IS NOT NULL)
);
CREATE INDEX content_items_by_kind ON content_items (kind, status, publish_at DESC, id DESC);
CREATE INDEX content_items_lessons ON content_items (parent_id, sort_order) WHERE parent_id IS NOT NULL;

CREATE TABLE content_translations (
  item_id        bigint NOT NULL REFERENCES content_items (id),
  language       text NOT NULL CHECK (language IN ('en', 'de', 'es', 'fr', 'fr-pro', 'it', 'it-pro', 'ru', 'zh-Hans', 'zh-Hant', 'ja', 'vi', 'ar')),
  title          text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  summary        text NOT NULL DEFAULT '' CHECK (length(summary) <= 300),
  body           text NOT NULL DEFAULT '' CHECK (length(body) <= 50000),
  -- to_tsvector(<the language's configuration>, title + summary + body words), written with the row.
  search_vector  tsvector NOT NULL,
  updated_by     bigint REFERENCES staff (id),
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (item_id, language)
);
CREATE INDEX content_translations_search ON content_translations USING gin (search_vector);

-- Images for content, uploaded by content staff through the uploads pipeline (decoded, re-encoded
-- without metadata, stored encrypted) and public once uploaded: they are for published pages.
CREATE TABLE content_images (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  storage_key  text NOT NULL UNIQUE,
  format       text NOT NULL CHECK (format IN ('jpeg', 'png', 'gif')),
  width        integer NOT NULL CHECK (width > 0),
  height       integer NOT NULL CHECK (height > 0),
  size_bytes   integer NOT NULL CHECK (size_bytes > 0),
  uploaded_by  bigint NOT NULL REFERENCES staff (id),
  created_at   timestamptz NOT NULL
);
