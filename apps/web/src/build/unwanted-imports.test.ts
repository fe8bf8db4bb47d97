import { describe, expect, it } from 'vitest';
import { findUnwantedImport } from './unwanted-imports.ts';

describe('findUnwantedImport: what a screen chunk must not wait for fails the build', () => {
  const imports = new Map([
    ['TradePage.js', ['features-shared.js', 'react.js']],
    ['features-shared.js', ['react.js', 'shell.js']],
    ['OrderForm.js', ['forms.js', 'features-shared.js']],
    ['forms.js', ['zod.js']],
    ['shell.js', ['react.js']],
    ['react.js', []],
    ['zod.js', []],
  ]);
  const isZod = (file: string) => file === 'zod.js';

  it('finds nothing when the chunk reaches it only through a dynamic import', () => {
    // OrderForm.js is a dynamic import of TradePage: not in the static map above.
    expect(findUnwantedImport(imports, 'TradePage.js', isZod)).toBeNull();
  });

  it('names the shortest chain of static imports that reaches it', () => {
    const withSchema = new Map(imports).set('features-shared.js', ['react.js', 'shell.js', 'forms.js']);
    expect(findUnwantedImport(withSchema, 'TradePage.js', isZod)).toEqual(['TradePage.js', 'features-shared.js', 'forms.js', 'zod.js']);
  });

  it('ends on circles instead of looping', () => {
    const circle = new Map([
      ['a.js', ['b.js']],
      ['b.js', ['a.js']],
    ]);
    expect(findUnwantedImport(circle, 'a.js', isZod)).toBeNull();
  });
});
