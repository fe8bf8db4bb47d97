import { useParams } from 'react-router';
import { isSafeSettingType, SafeSettingPage as SafeSetting } from '../../../features/settings/SafeSettingPage.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/** /safeSetting/{type}; the types are listed in features/settings/SafeSettingPage.tsx. */
export function SafeSettingPage() {
  const { type } = useParams();
  if (!isSafeSettingType(type)) return <NotFoundPage />;
  return <SafeSetting type={type} />;
}
