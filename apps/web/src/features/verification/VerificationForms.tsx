import { ApiError, idDocumentTypes, submitAdvancedVerificationContract, submitIdentityVerificationContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice, Notice, PageHeader, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { countryOptions } from './countries.ts';
import { SelectField, TextAreaField } from './fields.tsx';
import { type FormProblem, validateAdvanced, validateIdentity } from './form-checks.ts';
import { type Level, LevelForm, type Photos, photoUploads } from './LevelForm.tsx';
import { useVerification, type VerificationStatus } from './useVerification.ts';
import { StateBadge } from './VerificationState.tsx';
import '../auth/auth.css';

const problemKeys: Record<FormProblem, MessageKey> = {
  required: 'web.validation.required',
  tooLong: 'web.verification.problem.tooLong',
  characters: 'web.verification.problem.characters',
  idNumber: 'web.verification.problem.idNumber',
  phoneFormat: 'web.auth.problem.phoneFormat',
};

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

function useSubmit() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  async function run(send: () => Promise<unknown>) {
    setBusy(true);
    setFormError(null);
    try {
      await send();
      toast(t('web.verification.submitted'));
      navigate('/person/authentication', { replace: true });
    } catch (error) {
      setBusy(false);
      if (isSessionError(error)) return;
      setFormError(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
    }
  }
  return { busy, formError, run };
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
  const { status, failed, reload } = useVerification();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const [form, setForm] = useState({ realName: '', country: '', address: '', idType: '', idNumber: '' });
  const [photos, setPhotos] = useState<Photos>({});
  const [problems, setProblems] = useState<Partial<Record<keyof typeof form, FormProblem>>>({});
  const [submitted, setSubmitted] = useState(false);
  const { busy, formError, run } = useSubmit();
  const set = (key: keyof typeof form, value: string) => setForm((current) => ({ ...current, [key]: value }));
  const problem = (key: keyof typeof form) => (problems[key] ? t(problemKeys[problems[key]]) : undefined);

  const title = t('web.verification.identityTitle');
  if (failed) return <Frame title={title}>{<LoadFailedNotice onRetry={reload} />}</Frame>;
  if (!status) return <Frame title={title}>{<p className="muted">{t('web.common.loading')}</p>}</Frame>;
  if (status.identity.status === 'in_review' || status.identity.status === 'verified') {
    return (
      <Frame title={title}>
        <Settled level="identity" status={status} />
      </Frame>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const found = validateIdentity(form);
    setProblems(found);
    const uploads = photoUploads(photos);
    if (Object.keys(found).length > 0 || !uploads) return;
    void run(() =>
      api(submitIdentityVerificationContract, {
        body: {
          realName: form.realName.trim(),
          country: form.country,
          address: form.address.trim(),
          idType: form.idType as (typeof idDocumentTypes)[number],
          idNumber: form.idNumber.trim(),
          ...uploads,
        },
      }),
    );
  }

  return (
    <Frame title={title}>
      <LevelForm level="identity" status={status} onSubmit={submit} formError={formError} busy={busy} photos={photos} setPhotos={setPhotos} submitted={submitted}>
        <TextField
          label={t('web.verification.realName')}
          name="realName"
          autoComplete="name"
          value={form.realName}
          maxLength={100}
          onChange={(event) => set('realName', event.target.value)}
          error={problem('realName')}
        />
        <SelectField label={t('web.verification.country')} name="country" value={form.country} onChange={(event) => set('country', event.target.value)} error={problem('country')}>
          <option value="">{t('web.verification.choose')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label={t('web.verification.address')}
          name="address"
          autoComplete="street-address"
          value={form.address}
          maxLength={300}
          onChange={(event) => set('address', event.target.value)}
          error={problem('address')}
        />
        <SelectField label={t('web.verification.idTypeLabel')} name="idType" value={form.idType} onChange={(event) => set('idType', event.target.value)} error={problem('idType')}>
          <option value="">{t('web.verification.choose')}</option>
          {idDocumentTypes.map((type) => (
            <option key={type} value={type}>
              {t(idTypeKeys[type])}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('web.verification.idNumber')}
          name="idNumber"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          value={form.idNumber}
          maxLength={40}
          onChange={(event) => set('idNumber', event.target.value)}
          error={problem('idNumber')}
        />
      </LevelForm>
    </Frame>
  );
}

/** /person/advanced: occupation, income, contact phone and photos; identity verification comes first. */
export function AdvancedForm() {
  const { t } = useI18n();
  const { status, failed, reload } = useVerification();
  const [form, setForm] = useState({ occupation: '', income: '', contactPhone: '' });
  const [photos, setPhotos] = useState<Photos>({});
  const [problems, setProblems] = useState<Partial<Record<keyof typeof form, FormProblem>>>({});
  const [submitted, setSubmitted] = useState(false);
  const { busy, formError, run } = useSubmit();
  const set = (key: keyof typeof form, value: string) => setForm((current) => ({ ...current, [key]: value }));
  const problem = (key: keyof typeof form) => (problems[key] ? t(problemKeys[problems[key]]) : undefined);

  const title = t('web.verification.advancedTitle');
  if (failed) return <Frame title={title}>{<LoadFailedNotice onRetry={reload} />}</Frame>;
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

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const found = validateAdvanced(form);
    setProblems(found);
    const uploads = photoUploads(photos);
    if (Object.keys(found).length > 0 || !uploads) return;
    void run(() =>
      api(submitAdvancedVerificationContract, {
        body: {
          occupation: form.occupation.trim(),
          income: form.income.trim(),
          contactPhone: form.contactPhone.trim(),
          ...uploads,
        },
      }),
    );
  }

  return (
    <Frame title={title}>
      <LevelForm level="advanced" status={status} onSubmit={submit} formError={formError} busy={busy} photos={photos} setPhotos={setPhotos} submitted={submitted}>
        <TextField
          label={t('web.verification.occupation')}
          name="occupation"
          autoComplete="organization-title"
          value={form.occupation}
          maxLength={100}
          onChange={(event) => set('occupation', event.target.value)}
          error={problem('occupation')}
        />
        <TextField
          label={t('web.verification.income')}
          name="income"
          hint={t('web.verification.incomeHint')}
          value={form.income}
          maxLength={100}
          onChange={(event) => set('income', event.target.value)}
          error={problem('income')}
        />
        <TextField
          label={t('web.verification.contactPhone')}
          name="contactPhone"
          type="tel"
          autoComplete="tel"
          hint={t('web.auth.phoneHint')}
          placeholder={t('web.auth.phonePlaceholder')}
          value={form.contactPhone}
          maxLength={32}
          onChange={(event) => set('contactPhone', event.target.value)}
          error={problem('contactPhone')}
        />
      </LevelForm>
    </Frame>
  );
}
