import { securityOverviewContract, setAntiPhishingCodeContract } from '@keel/contracts';
import { useNavigate } from 'react-router';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, useContractForm, useFieldProps } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';

const schema = bodySchema(setAntiPhishingCodeContract);

/** /safeSetting/antiphishing: a code of 4–20 letters or digits that every e-mail from Keel shows. */
export function AntiPhishingForm() {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const security = useContractQuery(securityOverviewContract);
  const form = useContractForm(schema, { defaultValues: { code: '' } });
  const field = useFieldProps(form);
  const save = useContractMutation(setAntiPhishingCodeContract, { invalidates: [securityOverviewContract] });

  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ body });
      toast(t('web.settings.antiPhishingSaved'));
      navigate('/person/setting', { replace: true });
    } catch (error) {
      applyRefusal(form, error);
    }
  });

  return (
    <>
      {loadFailed(security) && <LoadFailedNotice onRetry={() => void security.refetch()} />}
      <form className="card" onSubmit={submit} noValidate>
        <p className="muted">{t('web.settings.antiPhishingIntro')}</p>
        {security.data?.antiPhishingCodeSet && <Notice testId="antiphishing-set">{t('web.settings.antiPhishingIsSet')}</Notice>}
        <FormError form={form} />
        <TextField
          label={t('web.settings.antiPhishingCode')}
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          hint={t('web.settings.antiPhishingFormat')}
          maxLength={20}
          {...field('code')}
        />
        <Button type="submit" block busy={form.formState.isSubmitting} data-testid="antiphishing-submit">
          {t('web.settings.save')}
        </Button>
      </form>
    </>
  );
}
