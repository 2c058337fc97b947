export * from './breakoutSignals';
export * from './consecutiveBreakout';
export * from './describeStrategy';
export * from './params';
export * from './signal';
export * from './signalPipeline';
