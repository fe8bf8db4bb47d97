import type { MessageKey } from '@keel/locales';
import type { FormEvent, ReactNode } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice } from '../../shared/ui/components.tsx';
import { PhotoPicker } from './PhotoPicker.tsx';
import type { VerificationStatus } from './useVerification.ts';

export type Level = 'identity' | 'advanced';
type PhotoName = 'front' | 'back' | 'holding' | 'extra';
export type Photos = Partial<Record<PhotoName, string>>;

/** The upload ids both levels send, or null while a required photo is missing (the form then shows which). */
export function photoUploads(photos: Photos) {
  if (!photos.front || !photos.back || !photos.holding) return null;
  return { frontUploadId: photos.front, backUploadId: photos.back, holdingUploadId: photos.holding, extraUploadId: photos.extra };
}

/** The four photos of both levels: front, back and holding the ID are required, extra proof optional. */
function PhotosSection({ onChange, submitted, photos }: { onChange: (name: PhotoName, uploadId: string | undefined) => void; submitted: boolean; photos: Photos }) {
  const { t } = useI18n();
  const slots: { name: PhotoName; label: MessageKey; required: boolean }[] = [
    { name: 'front', label: 'web.verification.photoFront', required: true },
    { name: 'back', label: 'web.verification.photoBack', required: true },
    { name: 'holding', label: 'web.verification.photoHolding', required: true },
    { name: 'extra', label: 'web.verification.photoExtra', required: false },
  ];
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
            missing={submitted && slot.required && !photos[slot.name]}
            onChange={(value) => onChange(slot.name, value?.uploadId)}
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
 * the form error, the photos, the privacy note and the submit button. Test ids carry the level.
 */
export function LevelForm(props: {
  level: Level;
  status: VerificationStatus;
  onSubmit: (event: FormEvent) => void;
  formError: string | null;
  busy: boolean;
  photos: Photos;
  setPhotos: (update: (current: Photos) => Photos) => void;
  submitted: boolean;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const { level, status, setPhotos } = props;
  return (
    <>
      {status[level].status === 'rejected' && (
        <Notice tone="error" title={t('web.verification.rejectedTitle')} testId={`${level}-reject-reason`}>
          {status[level].rejectReason ?? ''}
        </Notice>
      )}
      <form className="card" onSubmit={props.onSubmit} noValidate data-testid={`${level}-form`}>
        <p className="muted">{t(introKeys[level])}</p>
        {props.formError && (
          <Notice tone="error" testId="form-error">
            {props.formError}
          </Notice>
        )}
        {props.children}
        <PhotosSection photos={props.photos} submitted={props.submitted} onChange={(name, id) => setPhotos((current) => ({ ...current, [name]: id }))} />
        <Notice>{t('web.verification.privacy')}</Notice>
        <Button type="submit" block busy={props.busy} data-testid={`${level}-submit`}>
          {t('web.verification.submit')}
        </Button>
      </form>
    </>
  );
}
