// Contract of every admin call (spec §7 "Admin calls") plus the UPI payment-request flow, one file per admin area
// under ./admin. Money: `*Paise` fields are integer paise; a plain `amount` follows the spec and is rupees. Times
// are ISO-8601 UTC strings. Lists are paginated and filtered on the server.
export * from './admin/listing';
export * from './admin/overview';
export * from './admin/activity';
export * from './admin/users';
export * from './admin/payments';
export * from './admin/brokers';
export * from './admin/catalog';
