import type { OptionType } from '../core/types';
import { isValidDate } from '../calendar/ist';

/** The parts of a canonical option symbol. */
export interface OptionSymbolParts {
  readonly underlying: string;
  /** expiry date, `YYYY-MM-DD` */
  readonly expiry: string;
  readonly strike: number;
  readonly optionType: OptionType;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

// The underlying is letters only, so the first digit starts the DD of the expiry without ambiguity.
const SYMBOL_RE =
  /^([A-Z]+)(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2})([1-9]\d*)(CE|PE)$/;

/** Formats the canonical symbol `NIFTY{DDMMMYY}{strike}{CE|PE}`, e.g. `NIFTY01DEC2624000CE`. */
export function formatOptionSymbol(parts: OptionSymbolParts): string {
  const { underlying, expiry, strike, optionType } = parts;
  if (!/^[A-Z]+$/.test(underlying))
    throw new RangeError(`underlying "${underlying}" must be capital letters`);
  if (!isValidDate(expiry)) throw new RangeError(`expiry "${expiry}" is not a YYYY-MM-DD date`);
  if (!Number.isInteger(strike) || strike <= 0)
    throw new RangeError(`strike ${strike} must be a positive integer`);
  const [year, month, day] = expiry.split('-');
  return `${underlying}${day}${MONTHS[Number(month) - 1]}${year?.slice(2)}${strike}${optionType}`;
}

/** Parses a canonical option symbol; returns null when `symbol` is not one (broker symbols are never parsed). */
export function parseOptionSymbol(symbol: string): OptionSymbolParts | null {
  const match = SYMBOL_RE.exec(symbol);
  if (!match) return null;
  const [, underlying, day, monthName, yy, strike, optionType] = match;
  const month = MONTHS.indexOf(monthName as (typeof MONTHS)[number]) + 1;
  const expiry = `20${yy}-${String(month).padStart(2, '0')}-${day}`;
  if (!isValidDate(expiry) || !underlying || !strike) return null;
  return { underlying, expiry, strike: Number(strike), optionType: optionType as OptionType };
}
