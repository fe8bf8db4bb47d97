-- Staff accounts (separate from users), their sessions, and the append-only audit log.
CREATE TABLE staff (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username       text NOT NULL UNIQUE,
  password_hash  text NOT NULL,
  roles          text[] NOT NULL CHECK (
                   cardinality(roles) > 0 AND
                   roles <@ ARRAY['admin', 'compliance', 'finance', 'support', 'content', 'merchant']::text[]),
  active         boolean NOT NULL DEFAULT true,
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE staff_sessions (
  token_hash  text PRIMARY KEY,
  staff_id    bigint NOT NULL REFERENCES staff (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  ended_at    timestamptz,
  client_ip   text
);

CREATE TABLE audit_log (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  staff_id     bigint REFERENCES staff (id),   -- null for actions of the system itself (seeding)
  action       text NOT NULL,
  target_type  text,
  target_id    text,
  detail       jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_ip    text,
  request_id   text,
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- The audit log is append-only: the database itself refuses to change or remove a row.
CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
