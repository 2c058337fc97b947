export * from './types';
export * from './candleHub';
export * from './strategyBook';
export * from './entryPlan';
export * from './orderFills';
export * from './tradingRuntime';
export * from './positionCheck';
export * from './positionReconciler';
