-- The VIP table became configuration (VIP_LEVELS, ADR 0046): a released P2P order keeps the
-- discount it was charged, so the order shows what was taken even after the table changes.
ALTER TABLE p2p_orders ADD COLUMN release_vip_discount_bps integer;

-- Orders released before this carry only the level; the table was then fixed at 10 % a level.
UPDATE p2p_orders SET release_vip_discount_bps = release_vip_level * 1000 WHERE release_vip_level IS NOT NULL;
