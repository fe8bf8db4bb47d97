import { ConfigError, loadConfig } from '../config/env.ts';
import { checkLedger } from '../persistence/ledger-check.ts';
import { openConfiguredDb } from '../persistence/open-db.ts';

// `npm run ledger:check`: the reconciliation check against the configured database; exit 1 on any problem.
try {
  const db = await openConfiguredDb(loadConfig());
  const result = await checkLedger(db);
  await db.close();
  console.log(`ledger: ${result.counts.accounts} accounts, ${result.counts.entries} entries, ${result.counts.postings} postings, ${result.counts.openHolds} open holds`);
  for (const problem of result.problems) console.error(`PROBLEM ${problem}`);
  console.log(result.ok ? 'ledger check passed' : `ledger check FAILED (${result.problems.length} problems)`);
  process.exit(result.ok ? 0 : 1);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
