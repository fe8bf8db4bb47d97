import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { languageChunkOf } from '@keel/locales/chunks';
import { precompiledCatalogues } from '@keel/locales/precompile';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { findChunkImportCycle } from './src/build/chunk-cycles.ts';
import { findUnwantedImport } from './src/build/unwanted-imports.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Modules of the first script (main.tsx and what it imports), one small chunk without React. Its
 * first module is zod-jitless.ts, so zod's setting is in place before any chunk that builds a
 * schema has even been requested (they are all fetched from this script's body; ADR 0025).
 */
const firstScriptModule = /(src[\\/]main\.tsx|src[\\/]shared[\\/]zod-jitless\.ts|src[\\/]app[\\/](first-screen|pages|trade-path)\.ts|src[\\/]shared[\\/]api[\\/](session-keys|early-reads)\.ts|src[\\/]shared[\\/]i18n[\\/]locale\.ts|contracts[\\/]src[\\/]i18n[\\/]locales\.ts|locales[\\/]src[\\/]load[\\/])/;

/**
 * The shell (app/start.tsx, the router, the layout) and what every page uses: the API client and
 * session, the messages, the common components and icons, the error pages. Shared code only
 * the tab screens use goes to `features-shared`, the rest to the screens' own chunks (below).
 */
const shellModule =
  /(apps[\\/]web[\\/]src[\\/](shared[\\/](api[\\/](client|session|redirect|queries)|i18n[\\/](I18nProvider|messages)|ui[\\/](components|shell-icons|toast|useAfterFirstScreen))|routes[\\/]mobile[\\/]error[\\/]ErrorPages|app[\\/](start|router|RootLayout|guards|providers|PageMain|lazy-page|route-prefetch|account-routes|wallet-routes|p2p-routes|desktop-site)|features[\\/]service-fab[\\/]fab-logic)|packages[\\/]ui[\\/]src[\\/](index|query)|packages[\\/]locales[\\/]src[\\/](browser|engine|messages))\./;

/**
 * The chunks every first screen runs whatever the address: React (two chunks), i18next, the shell
 * and the bundler's runtime.
 * `index.html` names them as module preloads, so the browser asks for them while it parses the page,
 * beside the first script, instead of after that script has arrived and run (a round trip and
 * a queue on HTTP/1.1's six connections later; Lighthouse's /index: ADR 0025).
 */
const chunksEveryScreenRuns = ['react', 'router-query', 'i18n', 'shell', 'rolldown-runtime'];

function preloadChunksEveryScreenRuns(): Plugin {
  return {
    name: 'keel-preload-every-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunks = Object.values(context.bundle ?? {}).flatMap((output) =>
          output.type === 'chunk' && output.name !== undefined && chunksEveryScreenRuns.includes(output.name) ? [{ name: output.name, fileName: output.fileName }] : [],
        );
        const missing = chunksEveryScreenRuns.filter((name) => !chunks.some((chunk) => chunk.name === name));
        if (missing.length) throw new Error(`no chunk named ${missing.join(', ')} to preload`);
        // In the order named: the largest first, so it is the first to claim a connection.
        chunks.sort((a, b) => chunksEveryScreenRuns.indexOf(a.name) - chunksEveryScreenRuns.indexOf(b.name));
        return chunks.map((chunk) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** What a chunk group's `name` function is given: the module graph as the bundler sees it. */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[]; importers: readonly string[]; dynamicImporters: readonly string[] } | null;
}

/** A module of the desktop site's pages (ADR 0048): a wide screen's chunks, never a phone's. */
const desktopModule = /apps[\\/]web[\\/]src[\\/]routes[\\/]desktop[\\/]/;

/**
 * The lazily loaded screens (modules something imports dynamically, and the app's entry) whose
 * chunks hold `id` through static imports: what minShareCount counts.
 */
function screensHolding(id: string, context: ChunkingContext, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(id)) return found;
  seen.add(id);
  const info = context.getModuleInfo(id);
  if (!info) return found;
  if (info.dynamicImporters.length > 0 || info.importers.length === 0) found.add(id);
  for (const importer of info.importers) for (const screen of screensHolding(importer, context, seen)) found.add(screen);
  return found;
}

/**
 * Whether two or more of the phone's screens hold the module: a module shared only with a desktop
 * page stays with the one mobile screen's code (the desktop page fetches that chunk too), so the
 * desktop site adds nothing to the tab screens' common chunk.
 */
const sharedByPhoneScreens = (id: string, context: ChunkingContext) => [...screensHolding(id, context)].filter((screen) => !desktopModule.test(screen)).length >= 2;

const authSharedModule = /apps[\\/]web[\\/]src[\\/](features[\\/]auth[\\/]|shared[\\/]i18n[\\/]LanguageSwitcher)/;

const featuresSharedModule = /(apps[\\/]web[\\/]src[\\/](features|shared[\\/](realtime|format|ui|api))|packages[\\/](domain|ui|contracts)[\\/]src)[\\/]/;
/**
 * Shared code a form, a wallet screen or an upload needs (the money forms' amount field builds on
 * the contracts' zod schema; the C2C screens' parts, which build on the wallet's): not for the tab
 * screens' common chunk.
 */
const notForTabScreens =
  /(apps[\\/]web[\\/]src[\\/](features[\\/](wallet|verification|auth|p2p|settings|earn|c2c|assets[\\/]amount-field)|shared[\\/](forms|api[\\/]upload))|packages[\\/]ui[\\/]src[\\/]QrCode|packages[\\/]contracts[\\/]src[\\/]http[\\/](user[\\/]security|auth|verification|swap))/;
const importsForms = (id: string, context: ChunkingContext) =>
  (context.getModuleInfo(id)?.importedIds ?? []).some((imported) => /(shared[\\/]forms[\\/]|react-hook-form|@hookform)/.test(imported));
/**
 * Modules that build zod schemas when loaded (the contract modules, the amount field): a chunk with
 * one of them imports zod, and the tab screens' first render must not wait for zod (ADR 0025,
 * fourth pass); they go to the chunks of the screens that use them.
 */
const importsZod = (id: string, context: ChunkingContext) => (context.getModuleInfo(id)?.importedIds ?? []).some((imported) => /node_modules[\\/]zod[\\/]/.test(imported));
function sharedByTabScreens(id: string, context: ChunkingContext): boolean {
  return featuresSharedModule.test(id) && !notForTabScreens.test(id) && !importsForms(id, context) && !importsZod(id, context) && sharedByPhoneScreens(id, context);
}

/**
 * Fails the build when chunks import each other in a circle: the browser then runs one of them
 * before what it imports from the other exists (a chunk group that leaves a module's imports to
 * other groups can make one; this build once showed a blank page for it).
 */
function noChunkImportCycles(): Plugin {
  return {
    name: 'keel-no-chunk-import-cycles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const imports = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output.imports] as const] : [])));
      const cycle = findChunkImportCycle(imports);
      if (cycle) throw new Error(`chunks import each other in a circle: ${cycle.join(' -> ')}`);
    },
  };
}

/** The chunks of the tab screens Lighthouse measures (issue 14): their first render paints without zod. */
const screensWithoutZod = ['TabShell', 'HomePage', 'TradePage'];

/**
 * Fails the build when the chunk of a screen above reaches zod through static imports: zod and the
 * contract schemas (about 28 KB over the mobile link) would then download before the screen can
 * paint. Those screens read through contract addresses (contracts http/address.ts); forms, the push
 * connection's frame reader and the other screens load zod when they need it (ADR 0025, fourth pass).
 */
function tabScreensPaintWithoutZod(): Plugin {
  return {
    name: 'keel-tab-screens-without-zod',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const imports = new Map(chunks.map((chunk) => [chunk.fileName, chunk.imports] as const));
      const holdsZod = new Set(chunks.filter((chunk) => chunk.moduleIds.some((id) => /node_modules[\\/]zod[\\/]/.test(id))).map((chunk) => chunk.fileName));
      for (const name of screensWithoutZod) {
        const screen = chunks.find((chunk) => chunk.name === name);
        if (!screen) throw new Error(`no chunk named ${name}`);
        const chain = findUnwantedImport(imports, screen.fileName, (file) => holdsZod.has(file));
        if (chain) throw new Error(`${name} waits for zod before it can paint: ${chain.join(' -> ')}`);
      }
    },
  };
}

// Built files go under /_app/ so no file path can shadow a client route such as /assets/recharge.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // Catalogues parsed at build time, so no ICU parser is downloaded. Every text file also as .br
  // and .gz (best levels: done once per build), served by the server per Accept-Encoding (ADR 0025).
  plugins: [
    precompiledCatalogues(),
    react(),
    preloadChunksEveryScreenRuns(),
    noChunkImportCycles(),
    tabScreensPaintWithoutZod(),
    compression({ algorithms: ['brotliCompress', 'gzip'] })],
  // The version shown on the "Mine" page is the app package's version, fixed at build time.
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir: 'dist',
    // No modulepreload polyfill (every browser the app supports has modulepreload): with it, the
    // entry for index.html was a file of its own holding the polyfill and an import of the first
    // script, one more request before the first screen (ADR 0025, fourth pass).
    modulePreload: { polyfill: false },
    assetsDir: '_app',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph bench/bundle.bench.ts measures the initial JS by.
    manifest: true,
    // Libraries change less often than the app: separate files cache longer. Each language's
    // texts are a chunk of their own, downloaded only for the language shown (ADR 0024).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // First: what it holds stays out of every other group, whose members import some of it.
            { name: 'first-script', test: (id: string) => firstScriptModule.test(id) || /(preload-helper|dynamic-import-helper|rolldown[\\/]runtime)/.test(id) },
            // React in two files of similar size rather than one: over HTTP/1.1 each file has a
            // connection of its own, so the two download side by side (ADR 0025).
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router-query', test: /node_modules[\\/](react-router|cookie|set-cookie-parser|@tanstack[\\/]query-core|@tanstack[\\/]react-query)[\\/]/ },
            // zod and the schemas every contract builds on (the API's envelope, amounts, pages).
            { name: 'zod', test: /(node_modules[\\/]zod[\\/]|packages[\\/]contracts[\\/]src[\\/]http[\\/](contract|common|validation)\.ts$)/ },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|i18next-icu|intl-messageformat|@formatjs)[\\/]/ },
            { name: languageChunkOf(['web', 'error']) },
            // The app's own code in a few chunks instead of one per shared module: over HTTP/1.1
            // a browser fetches six files at a time, so twenty files of 1–4 KB cost more round
            // trips than bytes (/index ran 35 scripts before it painted; now 14; ADR 0025). A
            // group takes the modules its members import too unless told not to, so the order
            // matters: the first script (above), the shell, then the forms, icons, wallet
            // cryptography, QR code, what the public screens share and what the tab screens share.
            // Contracts have no group of their own beyond zod's three: one chunk of them all made
            // every page build every schema at load (190 ms at 4x CPU on /index); they go with the
            // shared code or the screen that uses them.
            { name: 'shell', test: (id: string) => shellModule.test(id) && !firstScriptModule.test(id) },
            { name: 'forms', includeDependenciesRecursively: false, test: /(apps[\\/]web[\\/]src[\\/]shared[\\/]forms|node_modules[\\/](react-hook-form|@hookform))[\\/]/ },
            // Every screen's icons (the shell's own few are in shell-icons.tsx): small, but in
            // the shared feature chunk they would bring all of it to the login screen.
            { name: 'icons', test: /apps[\\/]web[\\/]src[\\/]shared[\\/]ui[\\/]icons\.tsx$/ },
            { name: 'wallet-crypto', test: /(node_modules[\\/](@noble|@scure)|packages[\\/]domain[\\/]src[\\/]wallet)[\\/]/ },
            { name: 'qr-code', test: /(node_modules[\\/]qrcode-generator|packages[\\/]ui[\\/]src[\\/]QrCode)/ },
            // What two or more of the phone's public screens share (the desktop's login and register pages fetch it too, ADR 0048).
            {
              name: (id: string, context: ChunkingContext) => (authSharedModule.test(id) && sharedByPhoneScreens(id, context) ? 'auth-shared' : null),
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
            {
              name: (id: string, context: ChunkingContext) => (sharedByTabScreens(id, context) ? 'features-shared' : null),
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/home': 'http://localhost:8080', '/ws': { target: 'ws://localhost:8080', ws: true } } },
});
