import { z } from 'zod';
import { defineContract } from '../contract.ts';

export const serviceUrlContract = defineContract({
  id: 'index.serviceUrl',
  method: 'GET',
  path: '/home/index/serviceurl',
  summary: 'The customer-service URL the floating button opens (from configuration). Public: a visitor who cannot log in needs it most.',
  // Public information (issue 14): the button is on the login and registration pages too.
  caller: 'public',
  data: z.string(),
  errors: [],
});
