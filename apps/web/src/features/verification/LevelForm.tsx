import type { MessageKey } from '@keel/locales';
import type { FormEventHandler, ReactNode } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice } from '../../shared/ui/components.tsx';
import { PhotoPicker } from './PhotoPicker.tsx';
import type { VerificationStatus } from './VerificationState.tsx';

export type Level = 'identity' | 'advanced';

/** The photo fields of both levels' contracts: front, back and holding the ID required, extra proof optional. */
export type PhotoField = 'frontUploadId' | 'backUploadId' | 'holdingUploadId' | 'extraUploadId';

const slots: { field: PhotoField; name: string; label: MessageKey }[] = [
  { field: 'frontUploadId', name: 'front', label: 'web.verification.photoFront' },
  { field: 'backUploadId', name: 'back', label: 'web.verification.photoBack' },
  { field: 'holdingUploadId', name: 'holding', label: 'web.verification.photoHolding' },
  { field: 'extraUploadId', name: 'extra', label: 'web.verification.photoExtra' },
];

/** The four photos; a photo is "required" where the contract's schema said so on the last submit. */
function PhotosSection({ onChange, missing }: { onChange: (field: PhotoField, uploadId: string | undefined) => void; missing: (field: PhotoField) => boolean }) {
  const { t } = useI18n();
  return (
    <fieldset className="form-stack" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="card-title" style={{ marginBlockEnd: 8 }}>
        {t('web.verification.photos')}
      </legend>
      <p className="muted">{t('web.verification.photosIntro')}</p>
      <div className="photo-grid">
        {slots.map((slot) => (
          <PhotoPicker
            key={slot.name}
            name={slot.name}
            label={t(slot.label)}
            missing={missing(slot.field)}
            onChange={(value) => onChange(slot.field, value?.uploadId)}
          />
        ))}
      </div>
    </fieldset>
  );
}

const introKeys: Record<Level, MessageKey> = {
  identity: 'web.verification.identityIntro',
  advanced: 'web.verification.advancedIntro',
};

/**
 * What the identity and advanced forms share around their own fields: the last rejection, the intro,
 * the form's notice, the photos, the privacy note and the submit button. Test ids carry the level.
 */
export function LevelForm(props: {
  level: Level;
  status: VerificationStatus;
  onSubmit: FormEventHandler<HTMLFormElement>;
  notice: ReactNode;
  busy: boolean;
  onPhoto: (field: PhotoField, uploadId: string | undefined) => void;
  photoMissing: (field: PhotoField) => boolean;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const { level, status } = props;
  return (
    <>
      {status[level].status === 'rejected' && (
        <Notice tone="error" title={t('web.verification.rejectedTitle')} testId={`${level}-reject-reason`}>
          {status[level].rejectReason ?? ''}
        </Notice>
      )}
      <form className="card" onSubmit={props.onSubmit} noValidate data-testid={`${level}-form`}>
        <p className="muted">{t(introKeys[level])}</p>
        {props.notice}
        {props.children}
        <PhotosSection onChange={props.onPhoto} missing={props.photoMissing} />
        <Notice>{t('web.verification.privacy')}</Notice>
        <Button type="submit" block busy={props.busy} data-testid={`${level}-submit`}>
          {t('web.verification.submit')}
        </Button>
      </form>
    </>
  );
}
