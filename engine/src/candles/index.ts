export * from './candleBuilder';
