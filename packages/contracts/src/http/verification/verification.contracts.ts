import { MAX_IMAGE_BYTES } from '@keel/domain';
import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, multilineText, pageQuerySchema, plainText, typedText } from '../common.ts';
import { validationMessages } from '../validation.ts';

const text = (max: number) => plainText(max).min(1, validationMessages.required);

export const uploadPurposes = ['verification', 'deposit_proof', 'chat', 'loan_holding', 'c2c_proof'] as const;
export const verificationLevels = ['identity', 'advanced'] as const;
export const verificationStates = ['unverified', 'in_review', 'verified', 'rejected'] as const;
export const idDocumentTypes = ['passport', 'driving_licence', 'id_card', 'other'] as const;

export const uploadImageContract = defineContract({
  id: 'uploads.image',
  method: 'POST',
  path: '/home/uploads/image',
  summary:
    'Upload a jpg, png or gif (decided by its bytes) for a verification photo or a deposit screenshot. It is re-encoded without metadata and stored encrypted; only you and compliance staff can fetch it.',
  caller: 'user',
  binaryBody: { maxBytes: MAX_IMAGE_BYTES, description: 'The image file as raw bytes.' },
  /** What the image is for: a verification photo (read by compliance staff) or a deposit screenshot (read by finance staff). */
  query: z.object({ purpose: z.enum(uploadPurposes).default('verification') }),
  data: z.object({ uploadId: z.string(), format: z.enum(['jpeg', 'png', 'gif']), width: z.number().int(), height: z.number().int() }),
  errors: ['WRONG_IMAGE_FORMAT', 'FILE_SIZE_MISMATCH', 'PAYLOAD_TOO_LARGE'],
});

export const getUploadContract = defineContract({
  id: 'uploads.get',
  method: 'GET',
  path: '/home/uploads/:uploadId',
  summary: 'One of your own uploaded images (the decrypted, cleaned bytes).',
  caller: 'user',
  params: z.object({ uploadId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['RECORD_NOT_FOUND'],
});

export const verificationLevelStatusSchema = z.object({
  status: z.enum(verificationStates),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
});

export const verificationStatusContract = defineContract({
  id: 'verification.status',
  method: 'GET',
  path: '/home/verification',
  summary: 'Identity and advanced verification states, the tier they give and what it allows.',
  caller: 'user',
  data: z.object({
    identity: verificationLevelStatusSchema,
    advanced: verificationLevelStatusSchema,
    tier: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    dailyWithdrawalLimitUsdt: z.string(),
  }),
  errors: [],
});

const photos = {
  frontUploadId: idSchema,
  backUploadId: idSchema,
  holdingUploadId: idSchema,
  extraUploadId: idSchema.optional(),
};

export const identityFieldsSchema = z.object({
  realName: text(100),
  country: z.string().trim().regex(/^[A-Z]{2}$/, validationMessages.countryCode),
  address: text(300),
  idType: z.enum(idDocumentTypes),
  idNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 -]{4,40}$/, validationMessages.idNumberFormat),
});

export const advancedFieldsSchema = z.object({
  occupation: text(100),
  income: text(100).describe('annual income band or amount, as the user states it'),
  contactPhone: typedText(32),
});

const submissionAnswer = z.object({ submissionId: z.string(), status: z.literal('in_review') });
const submissionErrors = ['VERIFICATION_IN_REVIEW', 'ALREADY_VERIFIED', 'RECORD_NOT_FOUND', 'WRONG_PHONE_NUMBER'];

export const submitIdentityVerificationContract = defineContract({
  id: 'verification.identity',
  method: 'POST',
  path: '/home/verification/identity',
  summary: 'Submit identity verification (name, country, address, ID document and photos) for review.',
  caller: 'user',
  body: identityFieldsSchema.extend(photos),
  data: submissionAnswer,
  errors: submissionErrors,
});

export const submitAdvancedVerificationContract = defineContract({
  id: 'verification.advanced',
  method: 'POST',
  path: '/home/verification/advanced',
  summary: 'Submit advanced verification (occupation, income, contact phone, ID photos) for review; needs identity verification first.',
  caller: 'user',
  body: advancedFieldsSchema.extend(photos),
  data: submissionAnswer,
  errors: [...submissionErrors, 'IDENTITY_VERIFICATION_REQUIRED'],
});

const reviewRoles = ['admin', 'compliance'] as const;

export const verificationSubmissionSchema = z.object({
  id: idSchema,
  userId: idSchema,
  userName: z.string(),
  level: z.enum(verificationLevels),
  status: z.enum(['in_review', 'verified', 'rejected']),
  fields: z.record(z.string(), z.string()),
  photos: z.object({
    front: z.string(),
    back: z.string(),
    holding: z.string(),
    extra: z.string().nullable(),
  }),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  rejectReason: z.string().nullable(),
});

export const listVerificationsContract = defineContract({
  id: 'admin.verifications',
  method: 'GET',
  path: '/home/admin/verifications',
  summary: 'The compliance review queue: submissions by state, oldest first.',
  caller: 'staff',
  staffRoles: reviewRoles,
  query: pageQuerySchema.extend({ status: z.enum(['in_review', 'verified', 'rejected']).default('in_review') }),
  data: z.object({ items: z.array(verificationSubmissionSchema), total: z.number().int() }),
  errors: ['PERMISSION_DENIED'],
});

export const getVerificationContract = defineContract({
  id: 'admin.verificationDetail',
  method: 'GET',
  path: '/home/admin/verifications/:submissionId',
  summary: 'One submission of the review queue, in any state (the back-office link to it; ADR 0028).',
  caller: 'staff',
  staffRoles: reviewRoles,
  params: z.object({ submissionId: idSchema }),
  data: verificationSubmissionSchema,
  errors: ['RECORD_NOT_FOUND', 'PERMISSION_DENIED'],
});

export const getStaffUploadContract = defineContract({
  id: 'admin.uploads.get',
  method: 'GET',
  path: '/home/admin/uploads/:uploadId',
  summary: 'A verification photo, for compliance review. Every view is written to the audit log.',
  caller: 'staff',
  staffRoles: reviewRoles,
  params: z.object({ uploadId: idSchema }),
  binaryAnswer: { description: 'the image' },
  data: z.unknown(),
  errors: ['RECORD_NOT_FOUND', 'PERMISSION_DENIED'],
});

export const decideVerificationContract = defineContract({
  id: 'admin.verifications.decide',
  method: 'POST',
  path: '/home/admin/verifications/:submissionId/decision',
  summary: 'Approve or reject (with the reason the user will read) a submission in review. Audited; the user gets a system message.',
  caller: 'staff',
  staffRoles: reviewRoles,
  params: z.object({ submissionId: idSchema }),
  body: z
    .object({ decision: z.enum(['approve', 'reject']), reason: multilineText(500).optional() })
    .refine((body) => body.decision === 'approve' || (body.reason ?? '').length > 0, {
      path: ['reason'],
      message: validationMessages.rejectionReason,
    }),
  data: verificationSubmissionSchema,
  errors: ['RECORD_NOT_FOUND', 'VERIFICATION_NOT_IN_REVIEW', 'PERMISSION_DENIED'],
});
