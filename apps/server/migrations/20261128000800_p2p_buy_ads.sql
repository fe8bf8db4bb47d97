-- P2P buy ads (issue 19). An ad now has a side: a sell ad (as before) offers USDT whose whole
-- quantity sits in the ad's hold; a buy ad wants USDT and holds nothing — a seller who sells into
-- it has the order's quantity held on their own coin account, in the order's own hold, at that
-- moment. The ad's owner is the seller of a sell ad and the buyer of a buy ad, so `seller_id`
-- becomes `owner_id`. An order on a buy ad carries the seller's payment details (the buyer pays
-- them); on a sell ad they are the ad's contact, as before.
ALTER TABLE p2p_ads RENAME COLUMN seller_id TO owner_id;
ALTER INDEX p2p_ads_of_seller RENAME TO p2p_ads_of_owner;
ALTER TABLE p2p_ads ADD COLUMN side text NOT NULL DEFAULT 'sell' CHECK (side IN ('sell', 'buy'));
ALTER TABLE p2p_ads ALTER COLUMN hold_id DROP NOT NULL;
ALTER TABLE p2p_ads ADD CONSTRAINT p2p_ads_hold_of_sell_ads CHECK ((side = 'sell') = (hold_id IS NOT NULL));
-- A buy ad has no hold to key a retried post by: its request key does it.
ALTER TABLE p2p_ads ADD COLUMN request_key text CHECK (length(request_key) <= 200);
CREATE UNIQUE INDEX p2p_ads_request_key ON p2p_ads (owner_id, request_key) WHERE request_key IS NOT NULL;
DROP INDEX p2p_ads_open;
CREATE INDEX p2p_ads_open ON p2p_ads (side, asset, price_fiat_minor, id) WHERE status = 'open';

ALTER TABLE p2p_orders ADD COLUMN hold_id bigint REFERENCES ledger_holds (id);
ALTER TABLE p2p_orders ADD COLUMN seller_contact text CHECK (length(seller_contact) <= 200);
-- Which side the order's ad was on (copied, so the order alone says whose escrow it uses).
ALTER TABLE p2p_orders ADD COLUMN ad_side text NOT NULL DEFAULT 'sell' CHECK (ad_side IN ('sell', 'buy'));
ALTER TABLE p2p_orders ADD CONSTRAINT p2p_orders_escrow_of_side CHECK (
  (ad_side = 'sell' AND hold_id IS NULL AND seller_contact IS NULL) OR (ad_side = 'buy' AND hold_id IS NOT NULL AND seller_contact IS NOT NULL)
);
