import { ConfigError, loadConfig } from '../config/env.ts';
import { migrate } from '../persistence/migrate.ts';
import { openConfiguredDb } from '../persistence/open-db.ts';
import { resetStaffFromCommandLine } from '../use-cases/admin/manage-staff.ts';

// `npm run staff:reset -- <username>` (ADR 0020): the operator's way back in when the only admin
// lost their password or authenticator. Prints a new one-time password once; the account is
// enabled, its authenticator reset and its sessions ended. Audited.
const username = process.argv[2];
if (!username) {
  console.error('usage: npm run staff:reset -- <staff username>');
  process.exit(2);
}
try {
  const config = loadConfig();
  const db = await openConfiguredDb(config);
  await migrate(db);
  const reset = await resetStaffFromCommandLine(db, { username, ttlHours: config.STAFF_ONE_TIME_PASSWORD_TTL_HOURS, now: new Date() });
  await db.close();
  if (!reset) {
    console.error(`no staff account named ${username}`);
    process.exit(1);
  }
  console.log(`One-time password for ${reset.username} (${reset.roles.join(', ')}), shown once: ${reset.oneTimePassword}`);
  console.log(`valid until ${reset.expiresAt.toISOString()}; at login set your own password and enrol an authenticator app.`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
