export * from './cache';
export * from './crossCheck';
export * from './service';
export * from './book';
