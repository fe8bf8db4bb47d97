import {
  decideVerificationContract,
  getStaffUploadContract,
  getUploadContract,
  getVerificationContract,
  listVerificationsContract,
  submitAdvancedVerificationContract,
  submitIdentityVerificationContract,
  uploadImageContract,
  verificationStatusContract,
} from '@keel/contracts';
import { handler } from '../route.ts';
import { decideVerification, getVerification, listVerifications, readUploadForReview } from '../../use-cases/verification/review-verification.ts';
import { submitVerification, verificationStatesOf } from '../../use-cases/verification/submit-verification.ts';
import { readUpload, uploadImage } from '../../use-cases/verification/upload-image.ts';

export const verificationRoutes = [
  handler(uploadImageContract, ({ session, bytes, query, deps }) => uploadImage(deps, session.user.id, bytes, query.purpose)),
  handler(getUploadContract, async ({ session, params, deps }) => {
    const { bytes, mediaType } = await readUpload(deps, BigInt(params.uploadId), session.user.id);
    return { bytes, mediaType };
  }),
  handler(verificationStatusContract, ({ session, deps }) => verificationStatesOf(deps.db, session.user.id)),
  handler(submitIdentityVerificationContract, ({ session, body, deps }) => submitVerification(deps, session.user.id, 'identity', body)),
  handler(submitAdvancedVerificationContract, ({ session, body, deps }) => submitVerification(deps, session.user.id, 'advanced', body)),
  handler(listVerificationsContract, ({ query, deps }) => listVerifications(deps, query)),
  handler(getVerificationContract, ({ params, deps }) => getVerification(deps, BigInt(params.submissionId))),
  handler(getStaffUploadContract, async ({ staffSession, params, request, deps }) => {
    const { bytes, mediaType } = await readUploadForReview(deps, staffSession, BigInt(params.uploadId), request.id);
    return { bytes, mediaType };
  }),
  handler(decideVerificationContract, ({ staffSession, params, body, request, deps }) =>
    decideVerification(deps, staffSession, { submissionId: BigInt(params.submissionId), ...body, requestId: request.id }),
  ),
];
