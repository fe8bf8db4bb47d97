-- Verification codes and the notification outbox (issue 4). A code is stored only as a hash; its
-- rows double as the record of sends that the per-target and per-address limits count.
CREATE TABLE verification_codes (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  purpose          text NOT NULL CHECK (purpose IN ('register', 'reset_password', 'bind_email', 'bind_phone')),
  channel          text NOT NULL CHECK (channel IN ('email', 'sms')),
  -- Normalised: a lower-case e-mail address or an E.164 phone number.
  target           text NOT NULL CHECK (length(target) BETWEEN 3 AND 254),
  -- sha-256 of "<id>:<code>": the code itself is never stored.
  code_hash        text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  requested_by_ip  text NOT NULL CHECK (length(requested_by_ip) <= 64),
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL CHECK (expires_at > created_at),
  consumed_at      timestamptz
);
CREATE INDEX verification_codes_by_target ON verification_codes (target, created_at);
CREATE INDEX verification_codes_by_address ON verification_codes (requested_by_ip, created_at);

-- Everything Keel sends to a person goes through here first, in the transaction that decided to
-- send it. A delivery job hands it to SMTP or the SMS provider when one is configured; with none,
-- it stays here and staff read it in the back-office, so the platform works with nothing set up.
CREATE TABLE notification_outbox (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel       text NOT NULL CHECK (channel IN ('email', 'sms')),
  target        text NOT NULL CHECK (length(target) BETWEEN 3 AND 254),
  subject       text NOT NULL CHECK (length(subject) <= 200),
  body          text NOT NULL CHECK (length(body) <= 10000),
  -- What caused it, e.g. verification_code:register; never the secret itself.
  topic         text NOT NULL CHECK (length(topic) <= 64),
  created_at    timestamptz NOT NULL,
  -- 'pending' until delivered; 'delivered' by a provider (the body is then blanked, so codes are
  -- not kept where staff read); 'outbox_only' when no provider is configured for the channel.
  -- Delivery errors and attempts are on the job row (jobs.job_key = 'notification:<id>').
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'outbox_only')),
  provider      text CHECK (length(provider) <= 32),
  delivered_at  timestamptz
);
CREATE INDEX notification_outbox_newest ON notification_outbox (created_at DESC);
