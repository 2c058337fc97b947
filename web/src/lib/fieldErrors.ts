// Forms validate with the server's own zod schemas (so both sides use the same words); this turns a schema's issues
// into the one message per input that Mantine's `error` prop shows.

/** One message per form field; a field without a problem is absent. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** The part of a zod error read here (structural, so `web` needs no zod import of its own). */
export interface IssueList {
  readonly issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>;
}

/**
 * The first message of each listed field, keyed by the issue's top-level path; issues on other paths (or none) are
 * left out, since the form has no input to show them on.
 */
export function fieldErrorsOf<F extends string>(error: IssueList, fields: ReadonlyArray<F>): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    const field = fields.find((f) => f === key);
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}
