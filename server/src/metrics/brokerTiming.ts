// An account's broker with its order calls measured: how long each order took to be answered, and every failed
// order write counted by broker and BrokerError kind. Built once per account broker (not per order or quote); the
// calls pass through unchanged, failures included.
import { isBrokerError, type Broker } from '@optionpilot/engine';
import type { TradingMetrics } from './metrics';

export function timeBrokerCalls(broker: Broker, name: string, metrics: TradingMetrics): Broker {
  const failed = (err: unknown): never => {
    metrics.brokerError(name, isBrokerError(err) ? err.kind : 'other');
    throw err;
  };
  const timed: Broker = {
    capabilities: broker.capabilities,
    orderUpdates$: broker.orderUpdates$,
    placeOrder: async (request) => {
      const sentAt = metrics.orderSent(request.side);
      try {
        const placed = await broker.placeOrder(request);
        metrics.orderAnswered(name, sentAt, 'ok');
        return placed;
      } catch (err) {
        metrics.orderAnswered(name, sentAt, 'error');
        return failed(err);
      }
    },
    modifyOrder: (id, amendment) => broker.modifyOrder(id, amendment).catch(failed),
    cancelOrder: (id) => broker.cancelOrder(id).catch(failed),
    getOrder: (ref) => broker.getOrder(ref),
    getPositions: () => broker.getPositions(),
  };
  if (broker.prepare === undefined) return timed;
  const prepare = broker.prepare.bind(broker);
  return { ...timed, prepare: () => prepare() };
}
