import { NEVER } from 'rxjs';
import { BrokerError } from './broker';
import type { Broker, BrokerCapabilities, BrokerOrderSnapshot, BrokerPosition } from './broker';
import { PAPER_CAPABILITIES } from './paperBroker';

/** The capabilities' name of {@link DisconnectedBroker}: the exits desk holds exits while an account has it. */
export const DISCONNECTED_BROKER = 'disconnected';

/**
 * The broker of a live account whose session has ended while it holds a position: no call reaches anyone. Its open
 * positions stay at the real broker (protected by their resting stops), so nothing may be "sold" anywhere else —
 * least of all on paper. Exits wait until the trader reconnects and the account's broker is built again.
 */
export class DisconnectedBroker implements Broker {
  readonly capabilities: BrokerCapabilities;
  readonly orderUpdates$ = NEVER;

  /** `broker`: the broker module's name when known, for the errors it raises */
  constructor(private readonly broker = 'none') {
    this.capabilities = { ...PAPER_CAPABILITIES, name: DISCONNECTED_BROKER };
  }

  placeOrder(): Promise<{ brokerOrderId: string }> {
    return Promise.reject(this.error());
  }

  modifyOrder(): Promise<void> {
    return Promise.reject(this.error());
  }

  cancelOrder(): Promise<void> {
    return Promise.reject(this.error());
  }

  getOrder(): Promise<BrokerOrderSnapshot | undefined> {
    return Promise.reject(this.error());
  }

  getPositions(): Promise<readonly BrokerPosition[]> {
    return Promise.reject(this.error());
  }

  private error(): BrokerError {
    return new BrokerError(
      'auth_expired',
      'NO_SESSION',
      'no broker session: reconnect to trade',
      this.broker,
    );
  }
}
