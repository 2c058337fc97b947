export * from './secretBox';
export * from './keys';
