import { describe, expect, it } from 'vitest';
import { findChunkImportCycle } from './chunk-cycles.ts';

describe('findChunkImportCycle: chunks that import each other in a circle fail the build', () => {
  it('finds none in a tree of imports, shared chunks included', () => {
    const imports = new Map([
      ['index.js', ['react.js', 'shell.js']],
      ['shell.js', ['react.js', 'zod.js']],
      ['home.js', ['shell.js', 'zod.js']],
      ['react.js', []],
      ['zod.js', []],
    ]);
    expect(findChunkImportCycle(imports)).toBeNull();
  });

  it('names the files of a circle of two', () => {
    const imports = new Map([
      ['features-shared.js', ['zod.js', 'p2p.contracts.js']],
      ['p2p.contracts.js', ['zod.js', 'features-shared.js']],
      ['zod.js', []],
    ]);
    expect(findChunkImportCycle(imports)).toEqual(['features-shared.js', 'p2p.contracts.js', 'features-shared.js']);
  });

  it('finds a longer circle reached through other chunks', () => {
    const imports = new Map([
      ['index.js', ['a.js']],
      ['a.js', ['b.js']],
      ['b.js', ['c.js']],
      ['c.js', ['a.js']],
    ]);
    expect(findChunkImportCycle(imports)).toEqual(['a.js', 'b.js', 'c.js', 'a.js']);
  });
});
