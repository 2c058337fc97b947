export * from './types';
export * from './candleSeries';
export * from './metrics';
export * from './premiumModel';
export * from './backtester';
