export * from './positionRisk';
export * from './accountRisk';
export * from './riskManager';
