#!/usr/bin/env node
// The server as plain JavaScript (issue 15, ADR 0031): `npm start` runs apps/server/dist/main.js
// instead of compiling the TypeScript sources through a loader at every start. One esbuild bundle
// of our own code (the server and the @keel/* packages); every npm dependency stays a package Node
// loads from node_modules (native modules, WebAssembly files and lazy imports such as ccxt's work as
// their authors ship them).
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const SERVER_ENTRY = resolve(root, 'apps/server/src/main.ts');
const SERVER_BUNDLE = resolve(root, 'apps/server/dist/main.js');

/** Bare imports are npm packages, loaded from node_modules at run time; ours (@keel/*) are bundled. */
const dependenciesStayPackages = {
  name: 'dependencies-stay-packages',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@keel/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Each module keeps its own `import.meta.url`: the migrations and the locale catalogues are found
 * relative to the module that names them (`new URL('../../migrations', import.meta.url)`), and in
 * one bundle every module would otherwise share the bundle's URL. The source file's URL is written
 * relative to the bundle, so the repository can still be moved after a build.
 */
const keepEachModulesUrl = {
  name: 'keep-each-modules-url',
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = relative(dirname(SERVER_BUNDLE), args.path).split('\\').join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

async function buildServer() {
  const started = Date.now();
  const result = await build({
    entryPoints: [SERVER_ENTRY],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Stack traces name our functions (the logs are read by people).
    keepNames: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [dependenciesStayPackages, keepEachModulesUrl],
  });
  const bytes = Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.bytes ?? 0;
  console.log(`server built: ${relative(root, SERVER_BUNDLE)} (${(bytes / 1024).toFixed(0)} KB) in ${Date.now() - started} ms`);
}

await buildServer();
