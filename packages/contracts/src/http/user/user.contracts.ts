import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { idSchema, localeSchema, publicUserSchema } from '../common.ts';

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

export const systemMessageSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});

export const listMessagesContract = defineContract({
  id: 'user.messages',
  method: 'GET',
  path: '/home/user/messages',
  summary: 'System messages, newest first (the source of GET /home/user/unread).',
  caller: 'user',
  query: z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(20) }),
  data: z.object({ items: z.array(systemMessageSchema), total: z.number().int(), unread: z.number().int() }),
  errors: [],
});

export const markMessagesReadContract = defineContract({
  id: 'user.messagesRead',
  method: 'POST',
  path: '/home/user/messages/read',
  summary: 'Mark the messages up to and including `upToId` read (the list marks what it has shown).',
  caller: 'user',
  body: z.object({ upToId: idSchema }),
  data: z.object({ unread: z.number().int() }),
  errors: [],
});
