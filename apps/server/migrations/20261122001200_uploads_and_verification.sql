-- Uploaded images and identity verification (issue 4). An upload row names the encrypted file in
-- storage; only its owner and compliance staff can fetch it. A verification submission is one
-- level (identity or advanced) with its fields and photos; its review is recorded on it.
CREATE TABLE uploads (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      bigint NOT NULL REFERENCES users (id),
  purpose      text NOT NULL CHECK (purpose IN ('verification')),
  storage_key  text NOT NULL UNIQUE,
  format       text NOT NULL CHECK (format IN ('jpeg', 'png', 'gif')),
  width        integer NOT NULL CHECK (width > 0),
  height       integer NOT NULL CHECK (height > 0),
  size_bytes   integer NOT NULL CHECK (size_bytes > 0),
  created_at   timestamptz NOT NULL
);
CREATE INDEX uploads_of_user ON uploads (user_id, created_at);

CREATE TABLE verification_submissions (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id        bigint NOT NULL REFERENCES users (id),
  level          text NOT NULL CHECK (level IN ('identity', 'advanced')),
  status         text NOT NULL DEFAULT 'in_review' CHECK (status IN ('in_review', 'verified', 'rejected')),
  -- The typed fields of the level (spec section 3), checked by the contract before they get here.
  fields         jsonb NOT NULL,
  front_upload_id    bigint NOT NULL REFERENCES uploads (id),
  back_upload_id     bigint NOT NULL REFERENCES uploads (id),
  holding_upload_id  bigint NOT NULL REFERENCES uploads (id),
  extra_upload_id    bigint REFERENCES uploads (id),
  submitted_at   timestamptz NOT NULL,
  reviewed_by    bigint REFERENCES staff (id),
  reviewed_at    timestamptz,
  reject_reason  text CHECK (length(reject_reason) BETWEEN 1 AND 500),
  CHECK ((status = 'in_review') = (reviewed_at IS NULL)),
  CHECK ((status = 'rejected') = (reject_reason IS NOT NULL))
);
-- At most one submission per user and level waits for review; a rejected one may be resubmitted.
CREATE UNIQUE INDEX verification_one_in_review ON verification_submissions (user_id, level) WHERE status = 'in_review';
CREATE UNIQUE INDEX verification_one_verified ON verification_submissions (user_id, level) WHERE status = 'verified';
CREATE INDEX verification_queue ON verification_submissions (status, submitted_at);
