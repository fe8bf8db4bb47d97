import { normalizePhone } from '@keel/domain';

/**
 * Client-side checks of the verification forms, mirroring the contracts (free text: required,
 * bounded, no control characters or angle brackets; the ID number 4–40 letters, digits, spaces or
 * dashes; a country code; the contact phone in international form). The server decides.
 */
export type FormProblem = 'required' | 'tooLong' | 'characters' | 'idNumber' | 'phoneFormat';

export function textProblem(value: string, max: number): FormProblem | undefined {
  const text = value.trim();
  if (text === '') return 'required';
  if (text.length > max) return 'tooLong';
  return /^[^\p{Cc}<>]+$/u.test(text) ? undefined : 'characters';
}

export function idNumberProblem(value: string): FormProblem | undefined {
  const text = value.trim();
  if (text === '') return 'required';
  return /^[A-Za-z0-9 -]{4,40}$/.test(text) ? undefined : 'idNumber';
}

export function contactPhoneProblem(value: string): FormProblem | undefined {
  if (value.trim() === '') return 'required';
  return normalizePhone(value) ? undefined : 'phoneFormat';
}

export interface IdentityInput {
  realName: string;
  country: string;
  address: string;
  idType: string;
  idNumber: string;
}

export function validateIdentity(input: IdentityInput): Partial<Record<keyof IdentityInput, FormProblem>> {
  const found: Partial<Record<keyof IdentityInput, FormProblem>> = {};
  const set = (field: keyof IdentityInput, problem: FormProblem | undefined) => {
    if (problem) found[field] = problem;
  };
  set('realName', textProblem(input.realName, 100));
  set('country', /^[A-Z]{2}$/.test(input.country) ? undefined : 'required');
  set('address', textProblem(input.address, 300));
  set('idType', input.idType === '' ? 'required' : undefined);
  set('idNumber', idNumberProblem(input.idNumber));
  return found;
}

export interface AdvancedInput {
  occupation: string;
  income: string;
  contactPhone: string;
}

export function validateAdvanced(input: AdvancedInput): Partial<Record<keyof AdvancedInput, FormProblem>> {
  const found: Partial<Record<keyof AdvancedInput, FormProblem>> = {};
  const occupation = textProblem(input.occupation, 100);
  if (occupation) found.occupation = occupation;
  const income = textProblem(input.income, 100);
  if (income) found.income = income;
  const phone = contactPhoneProblem(input.contactPhone);
  if (phone) found.contactPhone = phone;
  return found;
}
