export * from './types';
export * from './candleSeries';
export * from './metrics';
export * from './premiumModel';
export * from './backtester';
export * from './generatedTicks';
export * from './sweepPass';
export * from './sweepGrid';
// sweepPool.ts (worker threads) is imported by path: '@optionpilot/engine/backtest/sweepPool'.
