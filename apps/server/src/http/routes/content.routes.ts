import {
  createContentContract,
  deleteContentTranslationContract,
  getAboutContract,
  getContentContract,
  getContentHomeContract,
  getContentImageContract,
  getStaffContentContract,
  listContentContract,
  listHelpCategoriesContract,
  listStaffContentContract,
  publishContentContract,
  saveContentTranslationContract,
  searchHelpContract,
  unpublishContentContract,
  updateContentContract,
  uploadContentImageContract,
} from '@keel/contracts';
import { handler, type RouteHandler } from '../route.ts';
import {
  contentHome,
  getAbout,
  getContent,
  helpCategoryCounts,
  listContent,
  readContentImage,
  searchHelp,
} from '../../use-cases/content/content-reader.ts';
import {
  createContent,
  deleteContentTranslation,
  getStaffContent,
  listStaffContent,
  publishContent,
  saveContentTranslation,
  unpublishContent,
  updateContent,
  uploadContentImage,
} from '../../use-cases/content/content-staff.ts';

/** Content (issue 20, ADR 0044): public reads (cacheable, ETag) and content staff's writes. */
export const contentRoutes: RouteHandler[] = [
  handler(listContentContract, ({ query, deps }) => listContent(deps, query)),
  handler(getContentContract, ({ params, query, deps }) => getContent(deps, BigInt(params.itemId), query.lang)),
  handler(getAboutContract, ({ query, deps }) => getAbout(deps, query.lang)),
  handler(getContentHomeContract, ({ query, deps }) => contentHome(deps, query.lang)),
  handler(listHelpCategoriesContract, ({ deps }) => helpCategoryCounts(deps)),
  handler(searchHelpContract, ({ query, deps }) => searchHelp(deps, query)),
  handler(getContentImageContract, ({ params, deps }) => readContentImage(deps, BigInt(params.imageId))),
];

export const contentStaffRoutes: RouteHandler[] = [
  handler(listStaffContentContract, ({ query, deps }) => listStaffContent(deps, query)),
  handler(getStaffContentContract, ({ params, deps }) => getStaffContent(deps, BigInt(params.itemId))),
  handler(createContentContract, ({ staffSession, body, deps, request }) => createContent(deps, staffSession, body, request.id)),
  handler(updateContentContract, ({ staffSession, params, body, deps, request }) => updateContent(deps, staffSession, BigInt(params.itemId), body, request.id)),
  handler(saveContentTranslationContract, ({ staffSession, params, body, deps, request }) =>
    saveContentTranslation(deps, staffSession, BigInt(params.itemId), params.language, body, request.id),
  ),
  handler(deleteContentTranslationContract, ({ staffSession, params, deps, request }) =>
    deleteContentTranslation(deps, staffSession, BigInt(params.itemId), params.language, request.id),
  ),
  handler(publishContentContract, ({ staffSession, params, body, deps, request }) =>
    publishContent(deps, staffSession, BigInt(params.itemId), body.publishAtMs, request.id),
  ),
  handler(unpublishContentContract, ({ staffSession, params, deps, request }) => unpublishContent(deps, staffSession, BigInt(params.itemId), request.id)),
  handler(uploadContentImageContract, ({ staffSession, bytes, deps, request }) => uploadContentImage(deps, staffSession, bytes, request.id)),
];
