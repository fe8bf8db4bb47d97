// Initial JavaScript of the two front ends (issue 14), measured on the production build: what a
// browser must fetch before the first screen can run —
//   - the entry script of index.html and every `<link rel="modulepreload">` beside it (the
//     entry's static imports), and the chunk the entry imports at once with the app itself
//     (the user app's `src/app/start.tsx`, in the `shell` chunk: React, the router, the shell) with its imports, and
//   - the one language catalogue loaded at start: the chunks built from the start language's
//     catalogue files (`en`, the fallback a fresh browser gets) under packages/locales that the
//     entry loads lazily, with their own static imports. The user app's texts shown only behind
//     the login (`messages-en-tabs`, `messages-en-more`, ADR 0025) are later downloads: reported,
//     not counted.
// Lazy chunks (feature areas, the chart, other languages) are listed but not counted.
// Each file is measured as gzip (level 9, what the build's `.gz` files hold) and brotli (what a
// browser is sent). Budgets: user app ≤ 150 KB gzip, back-office ≤ 250 KB gzip (KB = 1,000 bytes,
// as Vite prints). Writes bench/results/bundle-<label>.json and exits 1 over a budget.
//
// `--root <dir>` measures another checkout (BEFORE: a worktree of an older commit), `--label`
// names the result (default `current`), `--no-build` reads the existing build instead of running
// `npm run build` first. `npm run bench:bundle`; never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { loadAverage } from './machine.ts';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string' },
    label: { type: 'string', default: 'current' },
    'no-build': { type: 'boolean', default: false },
  },
});
const repoRoot = resolve(import.meta.dirname, '..');
const root = resolve(args.root ?? repoRoot);

/** Budgets of issue 14, in KB (1,000 bytes) of gzip. */
export const bundleBudgetsKB = { web: 150, admin: 250 } as const;
/**
 * What an entry imports dynamically but at once, before any screen: the user app's `start.tsx`,
 * which its build puts into the chunk named `shell` (apps/web/vite.config.ts).
 */
const APP_START_SOURCES = ['src/app/start.tsx'];
const APP_START_CHUNKS = ['shell'];
/**
 * The user app's first screens the Lighthouse bench loads, by the chunks their routes load
 * (apps/web/src/app/pages.ts): what each downloads before it can show anything is the initial JS
 * above plus these chunks with their static imports (zod and the contracts, the forms, the shared
 * feature code) and, behind the login, the tabs' texts. Reported, not budgeted: the budget is
 * the part every screen shares.
 */
const WEB_FIRST_SCREENS: Record<string, { sources: string[]; behindLogin: boolean }> = {
  '/login': { sources: ['src/routes/mobile/login/LoginPage.tsx'], behindLogin: false },
  '/index': { sources: ['src/app/TabShell.tsx', 'src/routes/mobile/index/HomePage.tsx'], behindLogin: true },
  '/trade': { sources: ['src/app/TabShell.tsx', 'src/routes/mobile/trade/TradePage.tsx'], behindLogin: true },
};
/** The language a fresh browser starts in (and every catalogue's fallback). */
const START_LOCALE = 'en';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface FileSize {
  file: string;
  rawKB: number;
  gzipKB: number;
  brotliKB: number;
}

const kb = (bytes: number) => Math.round(bytes / 100) / 10;

function measureFile(dist: string, file: string): FileSize {
  const bytes = readFileSync(join(dist, file));
  return {
    file,
    rawKB: kb(bytes.length),
    gzipKB: kb(gzipSync(bytes, { level: 9 }).length),
    brotliKB: kb(brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
  };
}

/** The entry and modulepreload files named by index.html, relative to dist. */
function filesOfIndexHtml(dist: string, base: string): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const urls = [
    ...[...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!),
    ...[...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1]!),
  ];
  return urls.map((url) => (url.startsWith(base) ? url.slice(base.length) : url.replace(/^\.?\//, '')));
}

/** A chunk and every chunk it imports statically, transitively (manifest keys). */
function withStaticImports(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return seen;
}

/**
 * Lazily loaded chunks of the start language's texts, reachable from the entry: a catalogue file
 * of packages/locales named after the language, or the chunk the build groups one language's
 * files into (`messages-<locale>`, @keel/locales/chunks).
 */
function startCatalogueKeys(manifest: Manifest, staticKeys: Set<string>): string[] {
  const dynamic = new Set([...staticKeys].flatMap((key) => manifest[key]?.dynamicImports ?? []));
  return [...dynamic].filter((key) => {
    const chunk = manifest[key];
    if (chunk?.name === `messages-${START_LOCALE}`) return true;
    const src = chunk?.src ?? key;
    return /packages\/locales\//.test(src) && basename(src).replace(/\.[a-z]+$/, '') === START_LOCALE;
  });
}

const sum = (sizes: FileSize[], key: 'gzipKB' | 'brotliKB' | 'rawKB') => Math.round(sizes.reduce((total, size) => total + size[key], 0) * 10) / 10;

function measureApp(name: 'web' | 'admin', base: string) {
  const dist = join(root, `apps/${name}/dist`);
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing: build first`);
  const manifestPath = join(dist, '.vite/manifest.json');
  const manifest: Manifest | null = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest) : null;

  const initial = new Set(filesOfIndexHtml(dist, base).filter((file) => file.endsWith('.js')));
  let catalogueFiles: string[] = [];
  let lazyFiles: string[] = [];
  if (manifest) {
    const entryKeys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
    // The user app's first script is small and imports the app itself (React, the router, the
    // shell: src/app/start.tsx) with a dynamic import, so the first screen's downloads start side
    // by side (ADR 0025); that chunk and its imports are fetched before any screen, so they count.
    const appStartKeys = Object.keys(manifest).filter(
      (key) => APP_START_SOURCES.some((source) => key.endsWith(source)) || APP_START_CHUNKS.includes(manifest[key]!.name ?? ''),
    );
    const staticKeys = withStaticImports(manifest, [...entryKeys, ...appStartKeys]);
    for (const key of staticKeys) initial.add(manifest[key]!.file);
    const catalogueKeys = withStaticImports(manifest, startCatalogueKeys(manifest, staticKeys));
    catalogueFiles = [...catalogueKeys].map((key) => manifest[key]!.file).filter((file) => !initial.has(file));
    const counted = new Set([...initial, ...catalogueFiles]);
    lazyFiles = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((file) => file.endsWith('.js') && !counted.has(file));
  } else {
    lazyFiles = readdirSync(join(dist, '_app'))
      .map((file) => `_app/${file}`)
      .filter((file) => file.endsWith('.js') && !initial.has(file));
  }
  const initialSizes = [...initial].map((file) => measureFile(dist, file));
  const firstScreens: Record<string, { gzipKB: number; brotliKB: number; files: number }> = {};
  if (manifest && name === 'web') {
    const laterTexts = Object.values(manifest).filter((chunk) => chunk.name === `messages-${START_LOCALE}-tabs`);
    for (const [path, screen] of Object.entries(WEB_FIRST_SCREENS)) {
      const keys = Object.keys(manifest).filter((key) => screen.sources.some((source) => key.endsWith(source)));
      const files = new Set([...initial, ...catalogueFiles, ...[...withStaticImports(manifest, keys)].map((key) => manifest[key]!.file)]);
      if (screen.behindLogin) for (const chunk of laterTexts) files.add(chunk.file);
      const sizes = [...files].filter((file) => file.endsWith('.js')).map((file) => measureFile(dist, file));
      firstScreens[path] = { gzipKB: sum(sizes, 'gzipKB'), brotliKB: sum(sizes, 'brotliKB'), files: sizes.length };
    }
  }
  const catalogueSizes = catalogueFiles.map((file) => measureFile(dist, file));
  const counted = [...initialSizes, ...catalogueSizes];
  const initialGzipKB = sum(counted, 'gzipKB');
  // The user app's texts of the pages behind the login are later downloads (`messages-en-tabs`,
  // `messages-en-more`, ADR 0025): not needed by the first screen, but reported, with what the
  // first script would weigh if the whole language were fetched up front.
  const laterCatalogue = Object.values(manifest ?? {})
    .filter((chunk) => chunk.name === `messages-${START_LOCALE}-tabs` || chunk.name === `messages-${START_LOCALE}-more`)
    .map((chunk) => measureFile(dist, chunk.file));
  return {
    initialGzipKB,
    initialBrotliKB: sum(counted, 'brotliKB'),
    initialRawKB: sum(counted, 'rawKB'),
    budgetGzipKB: bundleBudgetsKB[name],
    withinBudget: initialGzipKB <= bundleBudgetsKB[name],
    entryAndPreloads: initialSizes,
    startCatalogue: catalogueSizes,
    laterCatalogue,
    withWholeCatalogueGzipKB: Math.round((initialGzipKB + sum(laterCatalogue, 'gzipKB')) * 10) / 10,
    /** All the JS each first screen downloads before it shows anything (user app only; reported). */
    firstScreens,
    /** Without a manifest (an older build) the catalogue cannot be told apart; it is then inside the files above. */
    manifest: manifest !== null,
    lazyChunks: lazyFiles.map((file) => measureFile(dist, file)).sort((a, b) => b.gzipKB - a.gzipKB),
  };
}

const loadAverageAtStart = loadAverage();
if (!args['no-build']) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed in ${root}`);
}
const apps = { web: measureApp('web', '/'), admin: measureApp('admin', '/admin/') };
const out = { label: args.label, root, date: new Date().toISOString(), budgetsKB: bundleBudgetsKB, apps, loadAverageAtStart };
mkdirSync(join(repoRoot, 'bench/results'), { recursive: true });
const file = join(repoRoot, `bench/results/bundle-${args.label}.json`);
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
for (const [name, app] of Object.entries(apps)) {
  console.log(
    `${name.padEnd(6)} initial JS ${app.initialGzipKB} KB gzip (${app.initialBrotliKB} KB brotli, ${app.initialRawKB} KB raw) in ${app.entryAndPreloads.length + app.startCatalogue.length} files; budget ${app.budgetGzipKB} KB: ${app.withinBudget ? 'within' : 'OVER'}`,
  );
  for (const size of [...app.entryAndPreloads, ...app.startCatalogue]) console.log(`         ${size.file.padEnd(48)} ${size.gzipKB} KB gzip`);
  for (const size of app.laterCatalogue) {
    console.log(`         (${size.file}: ${size.gzipKB} KB gzip, texts behind the login)`);
  }
  if (app.laterCatalogue.length > 0) console.log(`         (with the whole language: ${app.withWholeCatalogueGzipKB} KB)`);
  for (const [path, screen] of Object.entries(app.firstScreens)) {
    console.log(`         first screen ${path.padEnd(7)} ${screen.gzipKB} KB gzip (${screen.brotliKB} KB brotli) in ${screen.files} files, its own chunks included`);
  }
  console.log(`         + ${app.lazyChunks.length} lazy chunks`);
}
console.log(`written to ${file}`);
process.exitCode = Object.values(apps).every((app) => app.withinBudget) ? 0 : 1;
