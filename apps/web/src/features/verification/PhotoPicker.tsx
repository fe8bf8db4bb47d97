import { ApiError } from '@keel/contracts';
import { useEffect, useId, useState } from 'react';
import { isSessionError } from '../../shared/api/client.ts';
import { type UploadPurpose, uploadImage } from '../../shared/api/upload.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { imageFileProblem } from './image-check.ts';

export interface PhotoValue {
  uploadId: string;
}

type Slot =
  | { state: 'empty' }
  | { state: 'uploading'; preview: string }
  | { state: 'done'; preview: string; uploadId: string }
  | { state: 'error'; preview: string | null; message: string };

/**
 * One photo of a verification form: choose a file (or take a photo on a phone), see it, and upload
 * it at once, so a refused file is reported next to it. The bytes are checked here first the way
 * the server checks them (format by bytes, size); the server decodes the image and decides.
 */
export function PhotoPicker({
  label,
  name,
  onChange,
  missing,
  purpose,
  onUploading,
}: {
  label: string;
  name: string;
  onChange: (value: PhotoValue | null) => void;
  /** The form was submitted without this required photo. */
  missing?: boolean;
  /** What the image is for (default: verification); a deposit screenshot is `deposit_proof`. */
  purpose?: UploadPurpose;
  /** Told when an upload starts and ends, so a form can wait for it. */
  onUploading?: (uploading: boolean) => void;
}) {
  const { t, tServer } = useI18n();
  const id = useId();
  const [slot, setSlot] = useState<Slot>({ state: 'empty' });
  const preview = slot.state === 'empty' ? null : slot.preview;

  // Each preview is an object URL; it is released when replaced or when the form goes away.
  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [preview]);

  async function choose(file: File | undefined) {
    if (!file) return;
    onChange(null);
    const problem = await imageFileProblem(file);
    if (problem) {
      setSlot({ state: 'error', preview: null, message: problem === 'size' ? tServer('file size mismatch') : tServer('wrong image format') });
      return;
    }
    const url = URL.createObjectURL(file);
    setSlot({ state: 'uploading', preview: url });
    onUploading?.(true);
    try {
      const answer = await uploadImage(file, { purpose });
      setSlot({ state: 'done', preview: url, uploadId: answer.uploadId });
      onChange({ uploadId: answer.uploadId });
    } catch (error) {
      if (isSessionError(error)) return;
      setSlot({ state: 'error', preview: url, message: error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed') });
    } finally {
      onUploading?.(false);
    }
  }

  const error = slot.state === 'error' ? slot.message : missing && slot.state === 'empty' ? t('web.verification.photoRequired') : null;
  return (
    <div className={error ? 'photo-slot has-error' : 'photo-slot'} data-testid={`photo-${name}`} data-state={slot.state}>
      <label className="photo-slot-label" htmlFor={id}>
        {label}
      </label>
      <div className="photo-drop">
        {preview && <img src={preview} alt={t('web.verification.photoPreview', { label })} />}
        {!preview && <span aria-hidden="true">{t('web.verification.choosePhoto')}</span>}
        <input
          id={id}
          name={name}
          type="file"
          accept="image/jpeg,image/png,image/gif"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-status`}
          onChange={(event) => {
            void choose(event.target.files?.[0]);
            // The same file chosen again after an error is a new choice.
            event.target.value = '';
          }}
        />
      </div>
      <p id={`${id}-status`} className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : 'status'}>
        {error ??
          (slot.state === 'uploading'
            ? t('web.verification.uploading')
            : slot.state === 'done'
              ? t('web.verification.uploaded')
              : t('web.verification.photoHint'))}
      </p>
    </div>
  );
}
