-- Fiat P2P (issue 6): sell ads whose quantity sits in escrow (one ledger hold per ad) and the
-- orders that draw on it. The escrow of an ad always equals what it still offers plus the
-- quantities of its orders that are awaiting payment, paid or under appeal.
CREATE TABLE p2p_ads (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  seller_id               bigint NOT NULL REFERENCES users (id),
  asset                   text NOT NULL REFERENCES ledger_assets (code),
  -- The fiat currency of the price ("unit"), ISO 4217.
  fiat                    text NOT NULL CHECK (fiat ~ '^[A-Z]{3}$'),
  -- Fiat per whole unit of the asset, in hundredths of the fiat currency.
  price_fiat_minor        numeric(38, 0) NOT NULL CHECK (price_fiat_minor > 0),
  min_minor               numeric(78, 0) NOT NULL CHECK (min_minor > 0),
  max_minor               numeric(78, 0) NOT NULL CHECK (max_minor >= min_minor),
  total_minor             numeric(78, 0) NOT NULL CHECK (total_minor > 0),
  -- Still offered: not sold, not in an open order.
  remaining_minor         numeric(78, 0) NOT NULL CHECK (remaining_minor >= 0),
  payment_window_minutes  integer NOT NULL CHECK (payment_window_minutes BETWEEN 5 AND 120),
  contact                 text NOT NULL CHECK (length(contact) <= 200),
  remark                  text NOT NULL DEFAULT '' CHECK (length(remark) <= 500),
  status                  text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  hold_id                 bigint NOT NULL REFERENCES ledger_holds (id),
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  closed_at               timestamptz
);
CREATE INDEX p2p_ads_open ON p2p_ads (asset, price_fiat_minor, id) WHERE status = 'open';
CREATE INDEX p2p_ads_of_seller ON p2p_ads (seller_id, id);

CREATE TABLE p2p_orders (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_no            text NOT NULL UNIQUE,
  ad_id               bigint NOT NULL REFERENCES p2p_ads (id),
  buyer_id            bigint NOT NULL REFERENCES users (id),
  seller_id           bigint NOT NULL REFERENCES users (id),
  asset               text NOT NULL REFERENCES ledger_assets (code),
  fiat                text NOT NULL,
  quantity_minor      numeric(78, 0) NOT NULL CHECK (quantity_minor > 0),
  price_fiat_minor    numeric(38, 0) NOT NULL CHECK (price_fiat_minor > 0),
  total_fiat_minor    numeric(78, 0) NOT NULL CHECK (total_fiat_minor > 0),
  remark              text NOT NULL DEFAULT '' CHECK (length(remark) <= 200),
  status              text NOT NULL DEFAULT 'awaiting_payment'
                      CHECK (status IN ('awaiting_payment', 'paid', 'released', 'cancelled', 'appealing', 'refunded')),
  payment_deadline    timestamptz NOT NULL,
  paid_at             timestamptz,
  ended_at            timestamptz,
  -- Why a cancelled order ended: the buyer cancelled, or the payment window ran out.
  cancel_reason       text CHECK (cancel_reason IN ('buyer', 'expired')),
  -- The entry that paid the escrow out (released) or returned it (refunded).
  closing_entry_id    bigint REFERENCES journal_entries (id),
  created_at          timestamptz NOT NULL,
  CHECK (buyer_id <> seller_id),
  CHECK ((status = 'cancelled') = (cancel_reason IS NOT NULL)),
  CHECK ((status IN ('released', 'refunded')) = (closing_entry_id IS NOT NULL))
);
CREATE INDEX p2p_orders_of_buyer ON p2p_orders (buyer_id, id);
CREATE INDEX p2p_orders_of_seller ON p2p_orders (seller_id, id);
CREATE INDEX p2p_orders_of_ad ON p2p_orders (ad_id) WHERE status IN ('awaiting_payment', 'paid', 'appealing');

-- An appeal of a paid order: who opened it and why, and how support staff resolved it.
CREATE TABLE p2p_appeals (
  order_id      bigint PRIMARY KEY REFERENCES p2p_orders (id),
  opened_by     bigint NOT NULL REFERENCES users (id),
  reason        text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  opened_at     timestamptz NOT NULL,
  resolution    text CHECK (resolution IN ('release', 'refund')),
  resolved_by   bigint REFERENCES staff (id),
  resolved_at   timestamptz,
  note          text CHECK (length(note) <= 500),
  CHECK ((resolution IS NULL) = (resolved_at IS NULL))
);
CREATE INDEX p2p_appeals_open ON p2p_appeals (opened_at) WHERE resolution IS NULL;

-- The per-order chat: the evidence of an appeal. A withdrawn message keeps its text for staff.
ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check CHECK (purpose IN ('verification', 'deposit_proof', 'chat'));
CREATE TABLE p2p_chat_messages (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id      bigint NOT NULL REFERENCES p2p_orders (id),
  sender_id     bigint NOT NULL REFERENCES users (id),
  text          text CHECK (length(text) <= 1000),
  upload_id     bigint REFERENCES uploads (id),
  created_at    timestamptz NOT NULL,
  withdrawn_at  timestamptz,
  read_at       timestamptz,
  CHECK ((text IS NULL) <> (upload_id IS NULL))
);
CREATE INDEX p2p_chat_of_order ON p2p_chat_messages (order_id, id);
