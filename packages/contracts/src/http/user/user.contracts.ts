import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { localeSchema, publicUserSchema } from '../common.ts';

export const unreadContract = defineContract({
  id: 'user.unread',
  method: 'GET',
  path: '/home/user/unread',
  summary: 'Whether the user has unread system messages (drives the tab-bar flag).',
  caller: 'user',
  data: z.boolean(),
  errors: [],
});

export const meContract = defineContract({
  id: 'user.me',
  method: 'GET',
  path: '/home/user/me',
  summary: 'The logged-in user.',
  caller: 'user',
  data: publicUserSchema,
  errors: [],
});

export const setLanguageContract = defineContract({
  id: 'user.setLanguage',
  method: 'PUT',
  path: '/home/user/language',
  summary: "Store the user's language on the account.",
  caller: 'user',
  body: z.object({ language: localeSchema }),
  data: publicUserSchema,
  errors: [],
});
