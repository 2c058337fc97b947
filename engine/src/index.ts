// Public surface of the engine. Each area re-exports its own module here as it lands.
export * from './core/types';
export * from './money';
export * from './clock';
export * from './calendar';
export * from './instruments';
export * from './pricing';
export * from './candles';
export * from './strategy';
export * from './execution';
export * from './risk';
export * from './charges';
export * from './feeds';
export * from './runtime';
export * from './backtest';
