import {
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

/** Proof of liabilities (issue 22, ADR 0040): public snapshots, each user's own proof, an admin's request for a snapshot now. */
export const proofRoutes: RouteHandler[] = [
  handler(listLiabilitySnapshotsContract, ({ query, deps }) => listLiabilitySnapshots(deps.db, query)),
  handler(getLiabilitySnapshotContract, ({ params, deps }) => getLiabilitySnapshot(deps.db, BigInt(params.snapshotId))),
  handler(getMyInclusionProofContract, ({ session, params, deps }) => myInclusionProof(deps.db, session.user.id, BigInt(params.snapshotId))),
  handler(requestLiabilitySnapshotContract, ({ staffSession, request, deps }) => requestLiabilitySnapshot(deps, staffSession, request.id)),
];
