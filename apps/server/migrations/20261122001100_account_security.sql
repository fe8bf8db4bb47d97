-- Account security settings (issue 4): payment password (separate from the login password),
-- anti-phishing code shown in every e-mail, contact methods used by P2P, and a public id for each
-- session so the user can list and end them.
ALTER TABLE users ADD COLUMN payment_password_hash text;
ALTER TABLE users ADD COLUMN anti_phishing_code text CHECK (anti_phishing_code ~ '^[A-Za-z0-9]{4,20}$');
ALTER TABLE users ADD COLUMN contact_methods jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(contact_methods) = 'array');
ALTER TABLE sessions ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
CREATE UNIQUE INDEX sessions_id ON sessions (id);
