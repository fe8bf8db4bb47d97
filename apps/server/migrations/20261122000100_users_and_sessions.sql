-- Users, their sessions and their system messages (foundation).
CREATE TABLE users (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username       text NOT NULL CHECK (username ~ '^[A-Za-z0-9]{6,32}$'),
  password_hash  text NOT NULL,
  nickname       text,
  status         text NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'suspended', 'banned', 'withdrawal_forbidden')),
  language       text NOT NULL DEFAULT 'en',
  invite_code    text NOT NULL UNIQUE,
  invited_by     bigint REFERENCES users (id),
  is_demo        boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now()
);
-- Usernames are unique whatever their case, so "Alice1" cannot impersonate "alice1".
CREATE UNIQUE INDEX users_username_ci ON users (lower(username));

CREATE TABLE sessions (
  token_hash   text PRIMARY KEY,            -- sha-256 of the opaque token, hex; the token itself is never stored
  user_id      bigint NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  ended_at     timestamptz,
  client_ip    text,
  user_agent   text
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE messages (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id),
  title       text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  read_at     timestamptz
);
CREATE INDEX messages_unread ON messages (user_id) WHERE read_at IS NULL;
