export * from './paise';
