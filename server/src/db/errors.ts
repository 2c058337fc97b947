// Classify driver errors by their codes (never by message text) so services can turn a duplicate e-mail or a
// missing parent row into a clean API error on either dialect.

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const code = (err as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A UNIQUE or PRIMARY KEY constraint refused the write. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A FOREIGN KEY constraint refused the write (missing parent, or a parent still referenced). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** A CHECK constraint (enumerations, ranges) refused the write. */
export function isCheckViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK';
}

/** An append-only table refused an UPDATE/DELETE (its trigger raised). */
export function isAppendOnlyViolation(err: unknown): boolean {
  const code = codeOf(err);
  // pg: RAISE ... USING ERRCODE = 'restrict_violation' (23001); SQLite: RAISE(ABORT) from a trigger.
  return code === '23001' || code === 'SQLITE_CONSTRAINT_TRIGGER';
}
