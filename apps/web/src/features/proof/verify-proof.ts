import { ApiError, errorCatalogue } from '@keel/contracts';
import {
  formatAmount,
  type ProofProblem,
  parseProofFile,
  proofBytesToHex,
  publishedFromJson,
  publishedToJson,
  verifyInclusionProof,
  webCryptoSha256,
} from '@keel/domain';

/**
 * What the page says about a proof file, beside the verifier's own problems (ADR 0040):
 * `published_mismatch` — the file's published data is not what the public list shows for this
 * snapshot. The page checks the user's path against the public data, which everyone sees, not
 * against a copy handed to this user alone.
 */
export type ProofCheckProblem = ProofProblem | 'published_mismatch';

export const proofCheckProblems: readonly ProofCheckProblem[] = [
  'malformed',
  'snapshot_mismatch',
  'asset_mismatch',
  'bad_index',
  'bad_path_length',
  'negative_sum',
  'sum_overflow',
  'bad_padding',
  'root_mismatch',
  'sum_mismatch',
  'published_mismatch',
];

export interface ProofBalance {
  asset: string;
  scale: number;
  /** The committed number: minor units as a decimal integer. */
  minor: string;
  /** The same as a decimal with the asset's committed scale (`formatAmount`), as the command-line verifier prints it. */
  amount: string;
}

export type ProofCheck =
  | {
      ok: true;
      snapshotId: string;
      takenAtMs: number;
      leafCount: number;
      /** 64 lower-case hex digits. */
      rootHash: string;
      userId: string;
      balances: ProofBalance[];
      /** Parsing and verifying together, by the clock given (the page's `performance.now()`). */
      elapsedMs: number;
    }
  | {
      ok: false;
      problem: ProofCheckProblem;
      /** Where a malformed file went wrong (`proof.path[3].hash`), else null. */
      at: string | null;
      elapsedMs: number;
    };

/**
 * Checks a proof file in the browser (issue 22, ADR 0040), the same way `npm run verify:proof`
 * does: the strict parser, then the path from the user's leaf recomputed with Web Crypto up to
 * the published root, every sum non-negative and adding up to the published totals. With
 * `against` (the snapshot as the public list publishes it) the file's published data must equal
 * it, and the path is checked against it. Never throws for a bad file; the time taken is measured
 * with `now` (the benchmark's "the proof check in the browser ≤ 50 ms").
 */
export async function verifyProofFile(json: unknown, options: { against?: unknown; now?: () => number } = {}): Promise<ProofCheck> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const refuse = (problem: ProofCheckProblem, at: string | null = null): ProofCheck => ({ ok: false, problem, at, elapsedMs: now() - started });

  const file = parseProofFile(typeof json === 'string' ? json : (JSON.stringify(json) ?? ''));
  if (!file.ok) return refuse('malformed', file.at);
  let published = file.value.published;
  if (options.against !== undefined) {
    const listed = publishedFromJson(options.against);
    if (!listed.ok) return refuse('malformed', listed.at);
    if (JSON.stringify(publishedToJson(listed.value)) !== JSON.stringify(publishedToJson(published))) return refuse('published_mismatch');
    published = listed.value;
  }
  const { proof } = file.value;
  const result = await verifyInclusionProof(proof, published, webCryptoSha256);
  if (!result.ok) return refuse(result.problem);
  return {
    ok: true,
    snapshotId: published.snapshotId,
    takenAtMs: published.takenAtMs,
    leafCount: published.leafCount,
    rootHash: proofBytesToHex(result.rootHash),
    userId: proof.userId,
    balances: result.assets.map((asset, index) => {
      const minor = result.balancesMinor[index]!;
      return { asset: asset.code, scale: asset.scale, minor: minor.toString(), amount: formatAmount(minor, asset.scale) };
    }),
    elapsedMs: now() - started,
  };
}

/** Why the user's proof could not be had: not in the snapshot (registered after it), no such snapshot, or a failed load. */
export type MineRefusal = 'not_in_snapshot' | 'not_found' | 'failed';

export function mineRefusalOf(error: unknown): MineRefusal {
  if (error instanceof ApiError && error.message === errorCatalogue.RECORD_NOT_FOUND.msg) {
    const reason = (error.data as { reason?: unknown } | null)?.reason;
    return reason === 'not_in_snapshot' ? 'not_in_snapshot' : 'not_found';
  }
  return 'failed';
}

/** What the "verify my balance" part of a snapshot's page shows. */
export type VerifyState =
  | { step: 'idle' }
  | { step: 'fetching' }
  | { step: 'checking' }
  | { step: 'refused'; refusal: MineRefusal }
  | { step: 'checked'; check: ProofCheck };

/**
 * The verify part's state from the proof's query and the check of its answer: nothing asked yet,
 * the file on its way, being checked, refused (with why), or checked. A session error is not the
 * page's to show (the client's session rules have sent the user to login), so it reads as fetching.
 */
export function verifyStateOf(input: {
  asked: boolean;
  file: unknown;
  error: unknown;
  sessionError: boolean;
  check: ProofCheck | null;
}): VerifyState {
  if (!input.asked) return { step: 'idle' };
  if (input.file !== undefined && input.file !== null) return input.check ? { step: 'checked', check: input.check } : { step: 'checking' };
  if (input.error && !input.sessionError) return { step: 'refused', refusal: mineRefusalOf(input.error) };
  return { step: 'fetching' };
}

/** The name a downloaded proof file is saved under; the command line names the same file. */
export function proofFileName(snapshotId: string): string {
  return `keel-proof-${snapshotId}.json`;
}

/** The command that checks a saved file outside the browser (from a checkout of Keel's source). */
export function verifyCommand(snapshotId: string): string {
  return `npm run verify:proof -- ${proofFileName(snapshotId)}`;
}
