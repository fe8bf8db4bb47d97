import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { formatAmount, type ProofProblem, parseProofFile, proofBytesToHex, verifyInclusionProof, webCryptoSha256 } from '@keel/domain';

// `npm run verify:proof -- file.json`: checks a saved proof-of-liabilities file (ADR 0040) outside
// the browser, with the same domain code and the same Web Crypto SHA-256 the page uses, so a user
// need not trust the page that gave them the file. Exit 0 verified, 1 not verified, 2 unreadable.

/** What each problem means, for a person reading a terminal. */
const EXPLANATIONS: Record<ProofProblem, string> = {
  malformed: 'the file holds values that cannot be committed (an id, an asset or a byte length)',
  snapshot_mismatch: 'the proof is of another snapshot than the published one',
  asset_mismatch: 'the proof lists other assets, or another number of amounts, than the published snapshot',
  bad_index: 'the leaf’s position is outside the tree',
  bad_path_length: 'the path does not have one sibling for each level of a tree of this many leaves',
  negative_sum: 'an amount is negative',
  sum_overflow: 'an amount or a sum does not fit 32 bytes',
  bad_padding: 'a padding node carries a sum or is not the padding the leaf count puts there',
  root_mismatch: 'the path from your leaf does not lead to the published root hash',
  sum_mismatch: 'the published totals are not the sums the root commits to',
};

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

export async function verifyProofCli(args: readonly string[], out: Output): Promise<0 | 1 | 2> {
  const path = args.filter((arg) => arg !== '--')[0];
  if (path === undefined || args.length > 2) {
    out.error('usage: npm run verify:proof -- <file.json>');
    return 2;
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    out.error(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const file = parseProofFile(text);
  if (!file.ok) {
    out.error(`${path} is not a proof file: malformed at ${file.at}`);
    return 2;
  }

  const { proof, published } = file.value;
  const result = await verifyInclusionProof(proof, published, webCryptoSha256);
  if (!result.ok) {
    out.error(`NOT verified: ${result.problem} (${EXPLANATIONS[result.problem]})`);
    return 1;
  }
  const width = Math.max(...result.assets.map((asset) => asset.code.length));
  const totals = result.assets.map((asset, at) => `${asset.code} ${formatAmount(published.totalsMinor[at]!, asset.scale)}`).join(', ');
  out.log(`snapshot ${published.snapshotId} taken ${new Date(published.takenAtMs).toISOString()}: ${published.leafCount} accounts; total liabilities ${totals}`);
  out.log(`balances of ${proof.userId}:`);
  for (const [at, asset] of result.assets.entries()) out.log(`  ${asset.code.padEnd(width)}  ${formatAmount(result.balancesMinor[at]!, asset.scale)}`);
  out.log(`verified against root ${proofBytesToHex(result.rootHash)} of snapshot ${published.snapshotId}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await verifyProofCli(process.argv.slice(2), { log: (line) => console.log(line), error: (line) => console.error(line) });
}
