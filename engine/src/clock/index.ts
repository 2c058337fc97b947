export * from './scaledScheduler';
export * from './virtualClock';
