// The Upstox order adapter: one account's session behind the engine's `Broker` port. Orders go to the orders root
// (api-hft), everything else to the API root; updates come from `orderUpdates.ts`.
import { asyncScheduler } from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import { BrokerError, isBrokerError } from '@optionpilot/engine';
import type { Broker, BrokerAmendment, BrokerPosition, OrderRef, OrderRequest } from '@optionpilot/engine';
import { z } from 'zod';
import { upstoxCapabilities, UPSTOX_SEND_WINDOWS } from './capabilities';
import { ORDER_NOT_FOUND_CODE, upstoxRequest } from './http';
import type { HttpMethod } from './http';
import type { InstrumentIndex } from './instruments';
import { toSnapshot, upstoxOrderRowSchema, upstoxTag } from './orderStatus';
import type { UpstoxOrderRow } from './orderStatus';
import { createOrderUpdates$ } from './orderUpdates';
import { createSendPacer } from './sendPacer';

export interface UpstoxBrokerOptions {
  readonly apiRoot: string;
  /** `https://api-hft.upstox.com` in production */
  readonly ordersRoot: string;
  readonly accessToken: string;
  /** SEBI algo tag, sent in every order's tag beside the client order id */
  readonly algoTag: string;
  /** the instrument master's index (canonical symbol ↔ instrument key) */
  readonly instruments: () => Promise<InstrumentIndex>;
  readonly now: () => number;
  readonly scheduler?: SchedulerLike;
  /** order-book polling interval while the portfolio stream is down */
  readonly pollIntervalMs?: number;
  readonly reconnectBackoffMs?: readonly number[];
  readonly freezeQty?: number;
  /** Upstox refused the access token: the session has ended */
  readonly onAuthExpired?: () => void;
}

const successSchema = z.object({ status: z.literal('success'), data: z.unknown() });
const placeDataSchema = z.object({ order_ids: z.array(z.string().min(1)).min(1) });
const positionSchema = z.object({
  instrument_token: z.string(),
  trading_symbol: z.string().nullish(),
  quantity: z.number(),
  average_price: z.number().nullish(),
  realised: z.number().nullish(),
});
const authorizeSchema = z.object({ authorized_redirect_uri: z.string().min(1) });

/** The `data` of a success envelope, parsed; a body of another shape is an answer we cannot trust. */
function dataOf<T>(body: unknown, schema: z.ZodType<T>): T {
  const envelope = successSchema.safeParse(body);
  const data = envelope.success ? schema.safeParse(envelope.data.data) : undefined;
  if (data === undefined || !data.success) {
    throw new BrokerError('network', 'BAD_RESPONSE', 'upstox answer not understood', 'upstox');
  }
  return data.data;
}

/** The fields a modify must repeat (Upstox's modify takes the whole order, not a difference). */
interface WorkingOrder {
  type: string;
  quantity: number;
  price: number;
  triggerPrice: number;
}

/** Builds the adapter for one account's session. */
export function createUpstoxBroker(options: UpstoxBrokerOptions): Broker {
  const scheduler = options.scheduler ?? asyncScheduler;
  // Load the master now: an order's rate-limit slot is granted before `placeOrder` runs, so a first order
  // waiting for the download would reach Upstox late and bunch up with the next second's orders.
  options.instruments().catch(() => undefined);
  const working = new Map<string, WorkingOrder>();
  const tags = new Map<string, string>();

  const call = (method: HttpMethod, url: string, json?: unknown): Promise<unknown> =>
    upstoxRequest({ method, url, json, accessToken: options.accessToken }).catch((error: unknown) => {
      if (isBrokerError(error) && error.kind === 'auth_expired') options.onAuthExpired?.();
      throw error;
    });
  const pacer = createSendPacer(UPSTOX_SEND_WINDOWS, scheduler);
  const orderCall = (method: HttpMethod, url: string, json?: unknown): Promise<unknown> =>
    pacer.run(() => call(method, url, json));
  const api = (path: string): string => `${options.apiRoot}${path}`;
  const hft = (path: string): string => `${options.ordersRoot}${path}`;
  const tagOf = (clientOrderId: string): string =>
    tags.get(clientOrderId) ?? upstoxTag(options.algoTag, clientOrderId);

  async function orderDetails(brokerOrderId: string): Promise<UpstoxOrderRow | undefined> {
    try {
      const body = await call('GET', api(`/v2/order/details?order_id=${encodeURIComponent(brokerOrderId)}`));
      return dataOf(body, upstoxOrderRowSchema);
    } catch (error) {
      if (isBrokerError(error) && error.code === ORDER_NOT_FOUND_CODE) return undefined;
      throw error;
    }
  }

  /** The latest row of the order carrying `tag` (history lists every transition, oldest first). */
  async function orderByTag(tag: string): Promise<UpstoxOrderRow | undefined> {
    try {
      const body = await call('GET', api(`/v2/order/history?tag=${encodeURIComponent(tag)}`));
      const rows = dataOf(body, z.array(upstoxOrderRowSchema));
      return rows[rows.length - 1];
    } catch (error) {
      if (isBrokerError(error) && error.code === ORDER_NOT_FOUND_CODE) return undefined;
      throw error;
    }
  }

  async function orderBook(): Promise<UpstoxOrderRow[]> {
    const body = await call('GET', api('/v2/order/retrieve-all'));
    return dataOf(body, z.array(upstoxOrderRowSchema));
  }

  async function authorizePortfolioStream(): Promise<string> {
    const body = await call('GET', api('/v2/feed/portfolio-stream-feed/authorize?update_types=order'));
    return dataOf(body, authorizeSchema).authorized_redirect_uri;
  }

  const orderUpdates$ = createOrderUpdates$({
    authorize: authorizePortfolioStream,
    orderBook,
    now: options.now,
    scheduler,
    pollIntervalMs: options.pollIntervalMs,
    reconnectBackoffMs: options.reconnectBackoffMs,
  });

  return {
    capabilities: upstoxCapabilities(options.freezeQty),
    orderUpdates$,

    async placeOrder(request: OrderRequest) {
      if (request.type === 'MARKET' || request.type === 'SL-M') {
        // Upstox blocks unprotected market orders from APIs; the router converts them before they get here.
        throw new BrokerError('rejected', 'UNPROTECTED', `unprotected ${request.type} order`, 'upstox');
      }
      let index: InstrumentIndex;
      try {
        index = await options.instruments();
      } catch {
        // Nothing was sent: a refusal (safe to retry), not an unknown outcome.
        throw new BrokerError(
          'rejected',
          'NO_INSTRUMENT_MASTER',
          'upstox instrument master unavailable',
          'upstox',
        );
      }
      const instrument = index.bySymbol(request.symbol);
      if (instrument === undefined) {
        throw new BrokerError(
          'rejected',
          'UNKNOWN_INSTRUMENT',
          `no Upstox instrument for ${request.symbol}`,
          'upstox',
        );
      }
      const tag = upstoxTag(options.algoTag, request.clientOrderId);
      tags.set(request.clientOrderId, tag);
      const price = request.price ?? 0;
      const triggerPrice = request.triggerPrice ?? 0;
      const body = await orderCall('POST', hft('/v3/order/place'), {
        quantity: request.quantity,
        product: request.product === 'MIS' ? 'I' : 'D',
        validity: 'DAY',
        price,
        tag,
        instrument_token: instrument.token,
        order_type: request.type,
        transaction_type: request.side,
        disclosed_quantity: 0,
        trigger_price: triggerPrice,
        is_amo: false,
        // The router splits by freeze quantity, one engine order per broker order; Upstox's own slicing would
        // answer several order ids for one engine order.
        slice: false,
      });
      const [brokerOrderId] = dataOf(body, placeDataSchema).order_ids as [string];
      working.set(brokerOrderId, { type: request.type, quantity: request.quantity, price, triggerPrice });
      return { brokerOrderId };
    },

    async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment) {
      let current = working.get(brokerOrderId);
      if (current === undefined) {
        // Placed by an earlier process: read what Upstox holds.
        const row = await orderDetails(brokerOrderId);
        if (row === undefined)
          throw new BrokerError('rejected', ORDER_NOT_FOUND_CODE, 'unknown order', 'upstox');
        current = {
          type: row.order_type ?? 'LIMIT',
          quantity: row.quantity ?? 0,
          price: row.price ?? 0,
          triggerPrice: row.trigger_price ?? 0,
        };
      }
      const next: WorkingOrder = {
        type: current.type,
        quantity: amendment.quantity ?? current.quantity,
        price: amendment.price ?? current.price,
        triggerPrice: amendment.triggerPrice ?? current.triggerPrice,
      };
      const body = await orderCall('PUT', hft('/v3/order/modify'), {
        order_id: brokerOrderId,
        quantity: next.quantity,
        validity: 'DAY',
        price: next.price,
        order_type: next.type,
        disclosed_quantity: 0,
        trigger_price: next.triggerPrice,
      });
      dataOf(body, z.object({ order_id: z.string() }));
      working.set(brokerOrderId, next);
    },

    async cancelOrder(brokerOrderId: string) {
      const body = await orderCall(
        'DELETE',
        hft(`/v3/order/cancel?order_id=${encodeURIComponent(brokerOrderId)}`),
      );
      dataOf(body, z.object({ order_id: z.string() }));
    },

    async getOrder(ref: OrderRef) {
      // No idempotency key at Upstox: an order whose placement timed out is found by its unique tag.
      const row =
        'brokerOrderId' in ref
          ? await orderDetails(ref.brokerOrderId)
          : await orderByTag(tagOf(ref.clientOrderId));
      return row === undefined ? undefined : toSnapshot(row, options.now());
    },

    async getPositions(): Promise<readonly BrokerPosition[]> {
      const [body, index] = await Promise.all([
        call('GET', api('/v2/portfolio/short-term-positions')),
        options.instruments(),
      ]);
      return dataOf(body, z.array(positionSchema)).map((row) => ({
        // Positions outside the NIFTY options (placed by hand) keep Upstox's symbol so reconciliation sees them.
        symbol: index.symbolOf(row.instrument_token) ?? row.trading_symbol ?? row.instrument_token,
        quantity: row.quantity,
        avgPrice: row.average_price ?? 0,
        realisedPnl: row.realised ?? 0,
      }));
    },
  };
}
