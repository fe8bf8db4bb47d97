import { decideCorrectionContract, listCorrectionsContract, proposeCorrectionContract } from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import { decideStaffCorrection, listCorrections, proposeCorrection } from '../../use-cases/corrections/staff-corrections.ts';

/**
 * Staff corrections (issue 22, ADR 0039): proposed by one finance or admin member, posted only when
 * a different one approves (an admin above the published value). No staff call writes a balance any
 * other way.
 */
export const correctionRoutes: RouteHandler[] = [
  handler(listCorrectionsContract, ({ query, deps }) => listCorrections(deps, query)),
  handler(proposeCorrectionContract, ({ staffSession, body, request, deps }) => proposeCorrection(deps, staffSession, { ...body, requestId: request.id })),
  handler(decideCorrectionContract, ({ staffSession, params, body, request, idempotency, deps }) =>
    decideStaffCorrection(deps, staffSession, { correctionId: BigInt(params.correctionId), approve: body.approve, note: body.note, requestId: request.id }, idempotency),
  ),
];
