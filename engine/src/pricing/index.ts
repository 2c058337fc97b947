export * from './normal';
export * from './blackScholes';
