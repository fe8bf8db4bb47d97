import { meContract, securityOverviewContract, setNicknameContract } from '@keel/contracts';
import { useNavigate } from 'react-router';
import { useContractMutation } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useMe } from '../profile/useMe.ts';

const schema = bodySchema(setNicknameContract);

/** /safeSetting/nickname: the nickname can be set once only (spec sections 3 to 5). */
export function NicknameForm() {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const { user, failed, reload } = useMe();
  const form = useContractForm(schema, { defaultValues: { nickname: '' } });
  const field = useFieldProps(form);
  const save = useContractMutation(setNicknameContract, { invalidates: [meContract, securityOverviewContract] });

  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ body });
      toast(t('web.settings.nicknameSaved'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      applyRefusal(form, error);
    }
  });

  if (failed) return <LoadFailedNotice onRetry={reload} />;
  if (!user) return <p className="muted">{t('web.common.loading')}</p>;
  if (user.nickname !== null) {
    return (
      <div className="card" data-testid="nickname-fixed">
        <dl className="facts">
          <div>
            <dt>{t('web.settings.nickname')}</dt>
            <dd data-testid="nickname-value">{user.nickname}</dd>
          </div>
        </dl>
        <p className="muted">{t('web.settings.nicknameOnce')}</p>
      </div>
    );
  }
  return (
    <form className="card" onSubmit={submit} noValidate>
      <Notice tone="warning">{t('web.settings.nicknameOnceWarning')}</Notice>
      <FormError form={form} />
      <TextField label={t('web.settings.nickname')} hint={t('web.settings.nicknameHint')} maxLength={20} {...field('nickname')} />
      <Button type="submit" block busy={form.formState.isSubmitting} data-testid="nickname-submit">
        {t('web.settings.save')}
      </Button>
    </form>
  );
}
