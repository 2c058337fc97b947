import { z } from 'zod';
import { isValidDate } from './ist';
import type { Weekday } from './ist';

/**
 * Contract specifications that change over time (`engine/data/nse-contracts.json`): expiry weekday, lot size, tick
 * size and strike step per underlying. Dated rows say "from this date on"; the first row may omit `effectiveFrom`
 * and then covers everything before the next row. A broker's instrument master, when present, wins over these.
 */

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

const dateSchema = z
  .string()
  .refine(isValidDate, { message: 'must be a real calendar date written YYYY-MM-DD' });

/** Dated rows must be in date order, and only the first may leave `effectiveFrom` out. */
function checkDatedRows(rows: readonly { effectiveFrom?: string | undefined }[], ctx: z.RefinementCtx): void {
  rows.forEach((row, i) => {
    const prev = rows[i - 1];
    if (i > 0 && row.effectiveFrom === undefined) {
      ctx.addIssue({ code: 'custom', path: [i, 'effectiveFrom'], message: 'only the first row may omit it' });
    }
    if (prev?.effectiveFrom !== undefined && row.effectiveFrom !== undefined) {
      if (row.effectiveFrom <= prev.effectiveFrom) {
        ctx.addIssue({ code: 'custom', path: [i, 'effectiveFrom'], message: 'rows must be in date order' });
      }
    }
  });
}

const datedRowShape = { effectiveFrom: dateSchema.optional(), source: z.string().optional() };

const underlyingSpecSchema = z.object({
  name: z.string().optional(),
  strikeStep: z.number().positive(),
  tickSize: z.number().positive(),
  expiryWeekdays: z
    .array(z.object({ ...datedRowShape, weekday: z.enum(WEEKDAYS) }))
    .min(1)
    .superRefine(checkDatedRows),
  lotSizes: z
    .array(z.object({ ...datedRowShape, lotSize: z.number().int().positive() }))
    .min(1)
    .superRefine(checkDatedRows),
});

export const contractSpecsSchema = z.object({
  underlyings: z.record(z.string().min(1), underlyingSpecSchema),
});

/** The validated contract specification file. */
export type ContractSpecs = z.infer<typeof contractSpecsSchema>;
/** Specifications of one underlying's options. */
export type UnderlyingSpec = ContractSpecs['underlyings'][string];

/** Validates raw contract-spec JSON; the error names every bad field with its path. */
export function parseContractSpecs(json: unknown): ContractSpecs {
  const result = contractSpecsSchema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map(
      (i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`,
    );
    throw new Error(`invalid contract specs:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
  }
  return result.data;
}

/** The specs of one underlying, throwing a clear error when the file does not list it. */
export function underlyingSpec(specs: ContractSpecs, underlying: string): UnderlyingSpec {
  const spec = specs.underlyings[underlying];
  if (!spec) throw new RangeError(`contract specs list no underlying "${underlying}"`);
  return spec;
}

function rowOn<R extends { effectiveFrom?: string | undefined }>(rows: readonly R[], date: string): R {
  let chosen = rows[0];
  for (const row of rows) {
    if (row.effectiveFrom === undefined || row.effectiveFrom <= date) chosen = row;
  }
  if (!chosen || (chosen.effectiveFrom !== undefined && chosen.effectiveFrom > date)) {
    throw new RangeError(`no row covers ${date}: the first row starts ${rows[0]?.effectiveFrom ?? 'never'}`);
  }
  return chosen;
}

/** The weekday on which the weekly and monthly contracts of `date`'s week nominally expire. */
export function expiryWeekdayOn(spec: UnderlyingSpec, date: string): Weekday {
  return WEEKDAYS.indexOf(rowOn(spec.expiryWeekdays, date).weekday) as Weekday;
}

/**
 * The lot size of a contract, selected by the contract's **expiry date**: the exchange fixes a contract's lot size
 * for its whole life and revisions apply to contracts by expiry, so on one trade date an old monthly contract and
 * a new weekly one can have different lot sizes.
 */
export function lotSizeFor(spec: UnderlyingSpec, expiryDate: string): number {
  return rowOn(spec.lotSizes, expiryDate).lotSize;
}
