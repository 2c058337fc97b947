export * from './candleBuilder';
export * from './deadlineTimer';
export * from './toCandles';
