import { z } from 'zod';
import { localeCodes } from '../../i18n/locales.ts';
import { defineContract } from '../contract.ts';

export const serviceUrlContract = defineContract({
  id: 'index.serviceUrl',
  method: 'GET',
  path: '/home/index/serviceurl',
  summary:
    'The customer-service URL the floating button and the help centre’s “contact us” open (from configuration): the one for `lang` when the operator set one (SERVICE_URL_BY_LANGUAGE), else the general one. Public: a visitor who cannot log in needs it most.',
  // Public information (issue 14): the button is on the login and registration pages too.
  caller: 'public',
  // The locales straight from their zod-free module: this file is in the user app's first script.
  query: z.object({ lang: z.enum(localeCodes).optional() }),
  data: z.string(),
  errors: [],
});

export const siteContract = defineContract({
  id: 'index.site',
  method: 'GET',
  path: '/home/index/site',
  summary:
    'What every page of the user app and the back-office shows about this deployment (from configuration): whether it is a demo (KEEL_DEMO), when each page says "Demo: not real money" (ADR 0041). Public: the login pages show it too.',
  caller: 'public',
  data: z.object({
    demo: z.boolean().describe('true on a deployment that declared itself a demo: its balances, prices and users are not real money'),
  }),
  errors: [],
});
