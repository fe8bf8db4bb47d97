export * from './brackets.ts';
export * from './positions.ts';
export * from './settlement.ts';
export * from './triggers.ts';
