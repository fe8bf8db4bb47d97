import { z } from 'zod';
import { defineContract } from '../contract.ts';

export const serviceUrlContract = defineContract({
  id: 'index.serviceUrl',
  method: 'GET',
  path: '/home/index/serviceurl',
  summary: 'The customer-service URL the floating button opens (from configuration).',
  caller: 'user',
  data: z.string(),
  errors: [],
});
