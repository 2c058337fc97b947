// Admin contract: broker status and connection tests. Money: `*Paise` fields are integer paise;
// a plain `amount` is rupees (spec). Times are ISO-8601 UTC strings.
import { z } from 'zod';
import type { BrokerType, SuccessResponse } from '../dto';
import { BROKER_TYPES } from '../dto';
import type { BrokerConnectionDto } from '../user';
import { type UserRefDto, listQuerySchema } from './listing';

// ------------------------------------------------------------------------------------------------------ brokers

/** `GET /api/admin/broker-status` (spec) */
export interface BrokerStatusDto {
  totalUsers: number;
  connectedUsers: number;
  brokerBreakdown: Partial<Record<BrokerType, number>>;
  sessions: { valid: number; expired: number; error: number; credentialsSaved: number; disconnected: number };
}

/** `GET /api/admin/brokers`: one row per user with a broker account. */
export const brokersQuerySchema = listQuerySchema.extend({
  broker: z.enum(BROKER_TYPES, { error: `broker must be one of ${BROKER_TYPES.join(', ')}` }).optional(),
  status: z
    .enum(['credentials_saved', 'connected', 'expired', 'error', 'disconnected'], {
      error: 'status must be credentials_saved, connected, expired, error or disconnected',
    })
    .optional(),
});
export interface AdminBrokerAccountDto extends BrokerConnectionDto {
  user: UserRefDto;
  connectedAt: string | null;
  updatedAt: string;
}

export const userIdBodySchema = z.object({
  userId: z
    .number({ error: 'userId must be a number' })
    .int('userId must be a whole number')
    .positive('userId must be positive'),
});
/**
 * `POST /api/admin/brokers/:type/test` and `POST /api/admin/test-fyers` may name a user: then that user's account of
 * the broker is tested, else the most recently connected one.
 */
export const testBrokerConnectionSchema = z.object({ userId: userIdBodySchema.shape.userId.optional() });

/** `:type` of `POST /api/admin/brokers/:type/test`. */
export const brokerTypeParamSchema = z.enum(BROKER_TYPES, {
  error: `type must be one of ${BROKER_TYPES.join(', ')}`,
});

/** `POST /api/admin/test-broker { userId }`, `POST /api/admin/brokers/:type/test` and `POST /api/admin/test-fyers` */
export interface TestBrokerResponse extends SuccessResponse {
  /**
   * what was checked: `paper`, `not_available` (no module for that broker), `credentials`, `api` (the broker's API
   * root answered, or not), `session`, `profile` (the account's profile over its session)
   */
  check: 'paper' | 'not_available' | 'credentials' | 'api' | 'session' | 'profile';
  brokerType: BrokerType | 'paper';
  profile?: { name: string };
}

/** `POST /api/admin/force-broker-disconnect { userId }` → SuccessResponse */
