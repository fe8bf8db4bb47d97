import {
  idDocumentTypes,
  phoneNumberSchema,
  submitAdvancedVerificationContract,
  submitIdentityVerificationContract,
  verificationStatusContract,
} from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ReactNode, useMemo } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, type FormOf, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice, Notice, PageHeader, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { countryOptions } from './countries.ts';
import { SelectField, TextAreaField } from './fields.tsx';
import { type Level, LevelForm, type PhotoField } from './LevelForm.tsx';
import { StateBadge, type VerificationStatus } from './VerificationState.tsx';
import '../auth/auth.css';

/** The identity contract's body, as it is: fields and photos. */
const identitySchema = bodySchema(submitIdentityVerificationContract);
/** The advanced contract's body; the contact phone is checked as a phone number before sending (the server's rule). */
const advancedSchema = bodySchema(submitAdvancedVerificationContract).extend({ contactPhone: phoneNumberSchema });

const idTypeKeys: Record<(typeof idDocumentTypes)[number], MessageKey> = {
  passport: 'web.verification.idType.passport',
  driving_licence: 'web.verification.idType.driving_licence',
  id_card: 'web.verification.idType.id_card',
  other: 'web.verification.idType.other',
};

/** What a level's form shows instead of itself while it is in review or once verified. */
function Settled({ level, status }: { level: Level; status: VerificationStatus }) {
  const { t } = useI18n();
  const state = status[level].status;
  return (
    <Card>
      <div className="session-head">
        <h2 className="card-title">{level === 'identity' ? t('web.verification.identityTitle') : t('web.verification.advancedTitle')}</h2>
        <StateBadge state={state} testId={`${level}-state`} />
      </div>
      <p>{state === 'in_review' ? t('web.verification.inReviewBody') : t('web.verification.verifiedBody')}</p>
      <Link to="/person/authentication" className="btn btn-secondary btn-block">
        {t('web.verification.toCentre')}
      </Link>
    </Card>
  );
}

/**
 * What both levels share: the status query, the submission (the status is refetched, then back to
 * the centre), and the photo fields, which are fields of the form set by the photo pickers.
 */
function useLevelSubmission<T extends FieldValues>(form: FormOf<T>) {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const photoForm = form as unknown as FormOf<Record<PhotoField, string | undefined>>;
  return {
    done: () => {
      toast(t('web.verification.submitted'));
      navigate('/person/authentication', { replace: true });
    },
    onPhoto: (field: PhotoField, uploadId: string | undefined) =>
      photoForm.setValue(field, uploadId, { shouldValidate: photoForm.formState.isSubmitted }),
    photoMissing: (field: PhotoField) => photoForm.formState.errors[field] !== undefined,
  };
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page page-narrow">
      <PageHeader title={title} backTo="/person/authentication" />
      {children}
    </div>
  );
}

/** /person/identity and /my/identity: real name, country, address, ID document and photos. */
export function IdentityForm() {
  const { t, locale } = useI18n();
  const query = useContractQuery(verificationStatusContract);
  const status = query.data;
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const form = useContractForm(identitySchema, { defaultValues: { realName: '', country: '', address: '', idNumber: '' } });
  const field = useFieldProps(form);
  const level = useLevelSubmission(form);
  const submit = useContractMutation(submitIdentityVerificationContract, { invalidates: [verificationStatusContract] });

  const title = t('web.verification.identityTitle');
  if (loadFailed(query)) return <Frame title={title}>{<LoadFailedNotice onRetry={() => void query.refetch()} />}</Frame>;
  if (!status) return <Frame title={title}>{<p className="muted">{t('web.common.loading')}</p>}</Frame>;
  if (status.identity.status === 'in_review' || status.identity.status === 'verified') {
    return (
      <Frame title={title}>
        <Settled level="identity" status={status} />
      </Frame>
    );
  }

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await submit.mutateAsync({ body });
      level.done();
    } catch (error) {
      applyRefusal(form, error);
    }
  });

  return (
    <Frame title={title}>
      <LevelForm
        level="identity"
        status={status}
        onSubmit={onSubmit}
        notice={<FormError form={form} />}
        busy={form.formState.isSubmitting}
        onPhoto={level.onPhoto}
        photoMissing={level.photoMissing}
      >
        <TextField label={t('web.verification.realName')} autoComplete="name" maxLength={100} {...field('realName')} />
        <SelectField label={t('web.verification.country')} {...field('country')}>
          <option value="">{t('web.verification.choose')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
        <TextAreaField label={t('web.verification.address')} autoComplete="street-address" maxLength={300} {...field('address')} />
        <SelectField label={t('web.verification.idTypeLabel')} defaultValue="" {...field('idType')}>
          <option value="">{t('web.verification.choose')}</option>
          {idDocumentTypes.map((type) => (
            <option key={type} value={type}>
              {t(idTypeKeys[type])}
            </option>
          ))}
        </SelectField>
        <TextField label={t('web.verification.idNumber')} autoCapitalize="characters" autoComplete="off" spellCheck={false} maxLength={40} {...field('idNumber')} />
      </LevelForm>
    </Frame>
  );
}

/** /person/advanced: occupation, income, contact phone and photos; identity verification comes first. */
export function AdvancedForm() {
  const { t } = useI18n();
  const query = useContractQuery(verificationStatusContract);
  const status = query.data;
  const form = useContractForm(advancedSchema, { defaultValues: { occupation: '', income: '', contactPhone: '' } });
  const field = useFieldProps(form);
  const level = useLevelSubmission(form);
  const submit = useContractMutation(submitAdvancedVerificationContract, { invalidates: [verificationStatusContract] });

  const title = t('web.verification.advancedTitle');
  if (loadFailed(query)) return <Frame title={title}>{<LoadFailedNotice onRetry={() => void query.refetch()} />}</Frame>;
  if (!status) return <Frame title={title}>{<p className="muted">{t('web.common.loading')}</p>}</Frame>;
  if (status.identity.status !== 'verified') {
    return (
      <Frame title={title}>
        <Card>
          <Notice tone="warning" title={t('web.verification.identityFirstTitle')} testId="advanced-needs-identity">
            {status.identity.status === 'in_review' ? t('web.verification.identityFirstInReview') : t('web.verification.identityFirst')}
          </Notice>
          {status.identity.status !== 'in_review' && (
            <Link to="/person/identity" className="btn btn-primary btn-block">
              {t('web.verification.startIdentity')}
            </Link>
          )}
        </Card>
      </Frame>
    );
  }
  if (status.advanced.status === 'in_review' || status.advanced.status === 'verified') {
    return (
      <Frame title={title}>
        <Settled level="advanced" status={status} />
      </Frame>
    );
  }

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await submit.mutateAsync({ body });
      level.done();
    } catch (error) {
      applyRefusal(form, error, { fieldErrors: { WRONG_PHONE_NUMBER: 'contactPhone' } });
    }
  });

  return (
    <Frame title={title}>
      <LevelForm
        level="advanced"
        status={status}
        onSubmit={onSubmit}
        notice={<FormError form={form} />}
        busy={form.formState.isSubmitting}
        onPhoto={level.onPhoto}
        photoMissing={level.photoMissing}
      >
        <TextField label={t('web.verification.occupation')} autoComplete="organization-title" maxLength={100} {...field('occupation')} />
        <TextField label={t('web.verification.income')} hint={t('web.verification.incomeHint')} maxLength={100} {...field('income')} />
        <TextField
          label={t('web.verification.contactPhone')}
          type="tel"
          autoComplete="tel"
          hint={t('web.auth.phoneHint')}
          placeholder={t('web.auth.phonePlaceholder')}
          maxLength={32}
          {...field('contactPhone')}
        />
      </LevelForm>
    </Frame>
  );
}
