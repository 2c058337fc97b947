/** One benchmark's outcome: named figures for the report table, never a pass/fail on time. */
export interface BenchResult {
  /** what was measured, e.g. "ticks → candles → signals" */
  name: string;
  /** label → value; numbers are printed as they are, strings verbatim (units belong in the label) */
  figures: Record<string, string | number>;
  /** how it was measured and anything a reader needs to interpret the figures */
  notes?: string[];
}
