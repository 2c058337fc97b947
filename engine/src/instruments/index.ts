export * from './optionSymbol';
export * from './strikes';
export * from './instrumentMaster';
