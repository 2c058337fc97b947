// The wire contract between server and web: REST DTOs, zod schemas of request bodies, and the Socket.IO event
// maps. Types and zod only: no Node imports, because web/ imports this folder too.
export * from './admin';
export * from './dto';
export * from './events';
export * from './schemas';
export * from './user';
export * from './gst';
export * from './brokers';
export * from './text';
export * from './refunds';
export * from './public';
export * from './session';
export * from './notifications';
export * from './push';
export * from './telegram';
