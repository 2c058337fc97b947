export * from './feedSource';
export * from './feedHealth';
export * from './random';
export * from './syntheticQuotes';
export * from './quoteBook';
export * from './simulatedMarket';
export * from './simulatedFeed';
