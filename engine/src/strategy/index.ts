export * from './consecutiveBreakout';
export * from './describeStrategy';
export * from './params';
export * from './signal';
