// The data layer's public surface: open/close/migrate, row types, error classifiers and the repositories.
export * from './knex';
export * from './migrate';
export * from './rows';
export * from './errors';
export * from './normalise';
export * from './repos/users';
export * from './repos/sessions';
export * from './repos/passwordResets';
export * from './repos/logs';
export * from './repos/contactMessages';
