import { precompiledCatalogues } from '@keel/locales/precompile';
import { defineConfig } from 'vitest/config';

// One config, three projects; scripts/test.mjs runs them one by one (and integration twice,
// once per database) so each result is reported on its own.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.{ts,tsx}', 'apps/*/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Vitest's default is one worker fewer than the cores: one on the CI machine's two.
          maxWorkers: 2,
        },
        // The user app's texts are imported in parts (`?part=start`), which the build's plugin makes.
        plugins: [precompiledCatalogues({ forTests: true })],
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/integration/**/*.test.ts'],
          // Two files at a time on the CI machine's two cores (Vitest's default would run one): each
          // file has its own database (a PGlite instance, or a schema on PostgreSQL), so they never
          // share rows. The suite took ~630 s on PGlite with one worker on a quiet machine.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // One browser at a time: the CI machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
