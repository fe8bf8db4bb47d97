import { staffUsernameSchema, validationMessages } from '@keel/contracts';
import { ConfigError, loadConfig } from '../config/env.ts';
import { migrate } from '../persistence/migrate.ts';
import { openConfiguredDb } from '../persistence/open-db.ts';
import { createFirstStaffFromCommandLine } from '../use-cases/admin/manage-staff.ts';

// `npm run staff:first -- <username>` (ADR 0041): the first admin of a deployment without demo data
// (production refuses SEED_DEMO). Works only while no staff account exists; prints the one-time
// password once, here on the operator's terminal — never in the server's log. Audited.
const username = process.argv[2];
if (!username) {
  console.error('usage: npm run staff:first -- <staff username>');
  process.exit(2);
}
if (!staffUsernameSchema.safeParse(username).success) {
  console.error(`${username}: a staff username ${validationMessages.staffUsernameFormat}`);
  process.exit(2);
}
try {
  const config = loadConfig();
  const db = await openConfiguredDb(config);
  await migrate(db);
  const created = await createFirstStaffFromCommandLine(db, { username, ttlHours: config.STAFF_ONE_TIME_PASSWORD_TTL_HOURS, now: new Date() });
  await db.close();
  if (!created) {
    console.error('staff accounts exist already: an admin creates members in the back-office (a lost admin: npm run staff:reset -- <username>)');
    process.exit(1);
  }
  console.log(`First admin ${created.username} created. One-time password, shown once: ${created.oneTimePassword}`);
  console.log(`valid until ${created.expiresAt.toISOString()}; at login set your own password and enrol an authenticator app.`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
