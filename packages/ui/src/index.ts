// React pieces both front ends use (the user app and the back-office may not import each other).
export { ContentMarkdown, type ContentMarkdownProps } from './ContentMarkdown.tsx';
export { DemoBanner } from './DemoBanner.tsx';
export { QrCode, qrModules } from './QrCode.tsx';
export {
  type ContractMutationOptions,
  type ContractQueryOptions,
  contractKey,
  createContractHooks,
  createQueryClient,
  invalidateContracts,
  isRefusal,
  keepPreviousData,
  type MutationInput,
} from './query.ts';
