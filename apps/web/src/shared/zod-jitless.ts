// Zod compiles object parsers with `new Function` where it may, and finds out by trying once; the
// browser reports that try as a Content-Security-Policy violation (script-src has no
// 'unsafe-eval', and keeps none). Jitless: no try, no eval; parsing works the same (ADR 0025).
// Zod decides when it builds an object schema, so this must run before any chunk builds one: it is
// main.tsx's first import and a chunk of its own that the entry imports first (vite.config.ts).
// Written to the object zod keeps its settings in (`config()` reads and writes the same one,
// whichever loads first), so this first script does not have to load zod itself.
const zodSettings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodSettings.__zod_globalConfig ??= {};
zodSettings.__zod_globalConfig.jitless = true;

// A module (its names stay its own), imported for the effect above.
export {};
