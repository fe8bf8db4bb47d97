import { z } from 'zod';
import { idSchema, pageQuerySchema } from '../common.ts';
import { defineContract } from '../contract.ts';

/**
 * Proof of liabilities (issue 22, ADR 0040): published snapshots of every user's balances as a
 * Merkle-sum tree — root hash, totals per asset, leaf count, time — public and kept for good; each
 * user fetches their inclusion proof as a file that the page (Web Crypto) and `npm run verify:proof`
 * check against the published root. Admins may ask for a snapshot besides the daily one.
 */

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const minorAmounts = z.array(z.string().regex(/^[0-9]+$/)).describe('minor units as decimal integers, in the assets’ order');
const assetSpecSchema = z.object({ code: z.string(), scale: z.number().int() });

/** Exactly what a verifier checks a proof against (the format of ADR 0040). */
export const publishedSnapshotSchema = z.object({
  snapshotId: z.string(),
  takenAt: z.string().describe('ISO 8601 (UTC) of the consistent point the balances were read at'),
  assets: z.array(assetSpecSchema),
  leafCount: z.number().int(),
  rootHash: hex64,
  totalsMinor: minorAmounts,
});

export const liabilitySnapshotSchema = z.object({
  id: idSchema,
  kind: z.enum(['scheduled', 'requested']),
  status: z.enum(['pending', 'published']),
  requestedAtMs: z.number().int(),
  published: publishedSnapshotSchema.nullable().describe('null until the snapshot is taken'),
  totals: z.array(z.object({ asset: z.string(), amount: z.string() })).describe('the total liabilities per asset, as amounts'),
});
export type LiabilitySnapshot = z.infer<typeof liabilitySnapshotSchema>;

export const proofFileSchema = z.object({
  format: z.literal('keel-proof-of-liabilities/1'),
  published: publishedSnapshotSchema,
  proof: z.object({
    snapshotId: z.string(),
    assets: z.array(assetSpecSchema),
    index: z.number().int(),
    userId: z.string(),
    salt: hex64,
    balancesMinor: minorAmounts,
    path: z.array(z.object({ hash: hex64, sumsMinor: minorAmounts })),
  }),
});
export type ProofFile = z.infer<typeof proofFileSchema>;

export const listLiabilitySnapshotsContract = defineContract({
  id: 'proof.snapshots',
  method: 'GET',
  path: '/home/proof/snapshots',
  summary: 'Published proof-of-liabilities snapshots, newest first: root hash, totals per asset, leaf count, time. Public.',
  caller: 'public',
  query: pageQuerySchema,
  data: z.object({ items: z.array(liabilitySnapshotSchema), total: z.number().int() }),
  errors: [],
});

export const getLiabilitySnapshotContract = defineContract({
  id: 'proof.snapshot',
  method: 'GET',
  path: '/home/proof/snapshots/:snapshotId',
  summary: 'One published snapshot. Public.',
  caller: 'public',
  params: z.object({ snapshotId: idSchema }),
  data: liabilitySnapshotSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const getMyInclusionProofContract = defineContract({
  id: 'proof.mine',
  method: 'GET',
  path: '/home/proof/snapshots/:snapshotId/mine',
  summary:
    'The caller’s inclusion proof in a published snapshot, as a file to check in the browser or with `npm run verify:proof`: their leaf (balances, salt, position) and the sibling of each level. A user who registered after the snapshot is not in it (`reason: not_in_snapshot`).',
  caller: 'user',
  params: z.object({ snapshotId: idSchema }),
  data: proofFileSchema,
  errors: ['RECORD_NOT_FOUND'],
});

export const requestLiabilitySnapshotContract = defineContract({
  id: 'admin.proof.request',
  method: 'POST',
  path: '/home/admin/proof/snapshots',
  summary: 'Ask for a proof-of-liabilities snapshot now, besides the daily one; the next pass of the job on any node takes it. One waiting request at a time (asking again answers the waiting one). Audited.',
  caller: 'staff',
  staffRoles: ['admin'],
  data: liabilitySnapshotSchema,
  errors: ['PERMISSION_DENIED'],
});
