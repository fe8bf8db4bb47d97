import { ConfigError, loadConfig } from '../config/env.ts';
import { migrate } from '../persistence/migrate.ts';
import { openConfiguredDb } from '../persistence/open-db.ts';

// `npm run db:migrate`: apply pending migrations to the configured database and stop.
try {
  const config = loadConfig();
  const db = await openConfiguredDb(config);
  const applied = await migrate(db);
  console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database is up to date');
  await db.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
