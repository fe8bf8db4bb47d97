import { type LocaleCode, setLanguageContract } from '@keel/contracts';
import { api } from '../api/client.ts';

/**
 * Stores the language on the account. A module of its own, imported when the language changes:
 * the contract (and zod with it) stays out of the first screen's script (ADR 0025).
 */
export function saveLanguageOnAccount(language: LocaleCode): Promise<unknown> {
  return api(setLanguageContract, { body: { language } });
}
