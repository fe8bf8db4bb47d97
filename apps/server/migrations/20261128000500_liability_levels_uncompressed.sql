-- A snapshot's levels are hashes and amounts: random bytes that do not compress. Stored compressed
-- (PostgreSQL's default for bytea), every level was compressed on write and decompressed whole for
-- every proof, which reads one 32 + 32 × assets byte node per level (bench:proof: a 12.8 MB level
-- wrote in 777 ms compressed against 49 ms stored as it is, and one node read in 6–9 ms against
-- 0.03–0.17 ms). EXTERNAL keeps them out of line and uncompressed, so `substring` reads only the node.
ALTER TABLE liability_snapshot_levels ALTER COLUMN nodes SET STORAGE EXTERNAL;
