// The wire contract between server and web: REST DTOs, zod schemas of request bodies, and the Socket.IO event
// maps. Types and zod only: no Node imports, because web/ imports this folder too.
export * from './dto';
export * from './events';
export * from './schemas';
export * from './user';
