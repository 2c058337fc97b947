// Admin contract: the live logs, signals and trades lists. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';
import type { AdminTradeDto, LogDto, SignalDto } from '../dto';
import { type PageDto, type UserRefDto, listQuerySchema } from './listing';

// ---------------------------------------------------------------------------------------- logs, signals, trades

/** `GET /api/admin/logs` → PageDto<AdminLogDto> */
export const logsQuerySchema = listQuerySchema.extend({
  eventType: z
    .enum(['auth', 'trade', 'order', 'admin', 'payment', 'error', 'system', 'other'], {
      error: 'eventType must be auth, trade, order, admin, payment, error, system or other',
    })
    .optional(),
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().optional(),
});
export interface AdminLogDto extends LogDto {
  actorId: number | null;
  user: UserRefDto | null;
}

/** `GET /api/admin/signals` → PageDto<SignalDto> */
export const signalsQuerySchema = listQuerySchema.extend({
  type: z.enum(['CALL', 'PUT'], { error: 'type must be CALL or PUT' }).optional(),
  executed: z.enum(['true', 'false'], { error: "executed must be 'true' or 'false'" }).optional(),
});
export type AdminSignalDto = SignalDto;

/** `GET /api/admin/trades`: search matches instrument, e-mail or name. */
export const tradesQuerySchema = listQuerySchema.extend({
  status: z
    .enum(['open', 'closed', 'cancelled'], { error: 'status must be open, closed or cancelled' })
    .optional(),
  type: z.enum(['CALL', 'PUT'], { error: 'type must be CALL or PUT' }).optional(),
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().optional(),
});
export interface AdminTradesResponse extends PageDto<AdminTradeDto> {
  /** over every trade matching the filters, not just this page */
  summary: {
    total: number;
    /** percent of closed trades with a profit */
    winRate: number;
    /** realised + open */
    totalPnl: number;
    totalPnlPaise: number;
    /** closed trades, net of charges */
    realisedPnl: number;
    realisedPnlPaise: number;
    /** open trades marked to the last quote, before charges */
    openPnl: number;
    openPnlPaise: number;
    openTrades: number;
  };
}
