// Admin contract: the overview (stats, system health) and the bot controls. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';
import type { SuccessResponse, SubsystemStatus } from '../dto';

// ----------------------------------------------------------------------------------------------------- overview

/** `GET /api/admin/stats` */
export interface AdminStatsDto {
  /** users with an active subscription (test users excluded) */
  activeUsers: number;
  /** net paise this IST calendar month (received − refunded), test users excluded */
  monthlyRevenue: number;
  /** this IST month's gross received, refunds processed and GST on its tax documents net of credit notes */
  monthlyGrossPaise: number;
  monthlyRefundsPaise: number;
  monthlyGst: { cgstPaise: number; sgstPaise: number; igstPaise: number };
  totalTrades: number;
  /** percent of closed trades with pnl > 0, 0..100 */
  winRate: number;
  /** the master switch (tradingEnabled) */
  botRunning: boolean;
}

export type HealthCheckName =
  'feed' | 'database' | 'brokerSessions' | 'openPositions' | 'eventLoop' | 'memory' | 'calendar';

export interface HealthCheckDto {
  name: HealthCheckName;
  status: SubsystemStatus;
  /** human summary, e.g. "live, last tick 0.8 s ago" */
  detail: string;
}

/** Something an operator must do by a date, which is not (yet) a fault: shown above the checks. */
export interface AdminNoticeDto {
  /** `calendar_next_year`: next year's NSE holiday list is not in engine/data/nse-calendar.json yet */
  id: 'calendar_next_year';
  message: string;
  /** IST date (YYYY-MM-DD) by which it must be done */
  neededBy: string;
}

/** `GET /api/admin/system-health`: every value measured at `checkedAt`. */
export interface SystemHealthDto {
  status: SubsystemStatus;
  checkedAt: string;
  checks: HealthCheckDto[];
  notices: AdminNoticeDto[];
  /**
   * `lastTickAt`: the last tick's market time (the simulated or replayed clock on such feeds); `lastTickAgeMs`:
   * how long ago it arrived, measured on the server's clock alone
   */
  feed: { status: 'live' | 'stale' | 'down'; lastTickAt: string | null; lastTickAgeMs: number | null };
  database: { ok: boolean; latencyMs: number };
  brokerSessions: { valid: number; expired: number; error: number; notConnected: number };
  openPositions: number;
  eventLoop: { meanMs: number; p99Ms: number; maxMs: number };
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number };
  calendar: { yearsCovered: number[]; thisYear: boolean; nextYear: boolean };
}

// ----------------------------------------------------------------------------------------------------- controls

const boolText = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be 'true' or 'false'` }).transform((v) => v === 'true');

const numberText = (name: string, min: number, max: number, opts: { int?: boolean } = {}) =>
  z
    .string({ error: `${name} must be a number` })
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, `${name} must be a number`)
    .transform(Number)
    .pipe(
      (opts.int ? z.number().int(`${name} must be a whole number`) : z.number())
        .min(min, `${name} must be between ${min} and ${max}`)
        .max(max, `${name} must be between ${min} and ${max}`),
    );

/**
 * One schema per admin control: the stored string (spec: values are strings) → its typed value. The admin route
 * validates writes with it and the trading runtime parses stored controls with it, so both agree on the bounds.
 * Points are NIFTY premium points.
 */
export const ADMIN_CONTROL_SCHEMA = {
  tradingEnabled: boolText('tradingEnabled'),
  putEnabled: boolText('putEnabled'),
  callEnabled: boolText('callEnabled'),
  stopLoss: numberText('stopLoss', 1, 500),
  target: numberText('target', 1, 1000),
  minMovement: numberText('minMovement', 0, 200),
  entryOffset: numberText('entryOffset', 0, 100),
  consecutiveCandles: numberText('consecutiveCandles', 1, 10, { int: true }),
  candleInterval: z
    .enum(['1', '3', '5', '15'], { error: 'candleInterval must be 1, 3, 5 or 15' })
    .transform(Number),
  squareOffTime: z
    .string({ error: 'squareOffTime is required' })
    .regex(
      /^(09:(1[5-9]|[2-5]\d)|1[0-4]:[0-5]\d|15:([0-2]\d|30))$/,
      'squareOffTime must be HH:MM between 09:15 and 15:30 IST',
    ),
  maxOrdersPerSecond: numberText('maxOrdersPerSecond', 1, 10, { int: true }),
  algoTag: z
    .string({ error: 'algoTag is required' })
    .regex(/^[A-Za-z0-9]{1,20}$/, 'algoTag must be 1 to 20 letters or digits'),
} as const;

export type AdminControlName = keyof typeof ADMIN_CONTROL_SCHEMA;
export const ADMIN_CONTROL_NAMES = Object.keys(ADMIN_CONTROL_SCHEMA) as AdminControlName[];
export type AdminControlValues = { [K in AdminControlName]: z.output<(typeof ADMIN_CONTROL_SCHEMA)[K]> };

export const controlNameSchema = z.enum(ADMIN_CONTROL_NAMES as [AdminControlName, ...AdminControlName[]], {
  error: `settingName must be one of ${ADMIN_CONTROL_NAMES.join(', ')}`,
});

/** `PUT /api/admin/control/:settingName` body; numbers and booleans are accepted and stored as their text. */
export const putControlSchema = z.object({
  value: z
    .union([z.string(), z.number(), z.boolean()], { error: 'value is required' })
    .transform((v) => String(v).trim()),
});

/** `PUT /api/admin/control/:settingName`, `POST /api/admin/trading/pause|resume` */
export interface ControlUpdateResponse extends SuccessResponse {
  control: { settingName: string; value: string; updatedAt: string };
  isRunning: boolean;
}

/** `POST /api/admin/trading/flatten-all`: the body must confirm, so a stray click cannot square off everything. */
export const flattenAllSchema = z.object({
  confirm: z.literal(true, { error: 'confirm must be true to square off every open position' }),
});
export interface FlattenAllResponse extends SuccessResponse {
  closed: number;
}
