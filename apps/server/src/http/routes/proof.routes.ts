import {
  getTransparencyContract,
  getLiabilitySnapshotContract,
  getMyInclusionProofContract,
  listLiabilitySnapshotsContract,
  requestLiabilitySnapshotContract,
} from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import {
  getLiabilitySnapshot,
  listLiabilitySnapshots,
  myInclusionProof,
  requestLiabilitySnapshot,
} from '../../use-cases/proof/liability-snapshots.ts';
import { transparency } from '../../use-cases/transparency/transparency.ts';

/**
 * What users can check (issue 22): proof-of-liabilities snapshots (ADR 0040) — public, each user's
 * own proof, an admin's request for one now — and the public transparency page's data.
 */
export const proofRoutes: RouteHandler[] = [
  handler(listLiabilitySnapshotsContract, ({ query, deps }) => listLiabilitySnapshots(deps.db, query)),
  handler(getLiabilitySnapshotContract, ({ params, deps }) => getLiabilitySnapshot(deps.db, BigInt(params.snapshotId))),
  handler(getMyInclusionProofContract, ({ session, params, deps }) => myInclusionProof(deps.db, session.user.id, BigInt(params.snapshotId))),
  handler(requestLiabilitySnapshotContract, ({ staffSession, request, deps }) => requestLiabilitySnapshot(deps, staffSession, request.id)),
  handler(getTransparencyContract, ({ deps }) => transparency(deps)),
];
