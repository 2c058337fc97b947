// The conformance faults as a broker fake holds them (test/brokers/conformance.ts): queued by `inject`, each taken by
// the next request it concerns — `token_expired` any authenticated request, `ip_not_allowed` an order write (place,
// modify, cancel), every other fault a placement; `drop_socket` acts at once. A fault injected for one kind of
// request (`on`) is taken by that kind only: a background read cannot spend a `token_expired` meant for a placement,
// nor a read of the order book one meant for the positions read a case makes (`positions` is a read).
// `timeout_placed` answers are held back here and released on close.
import type { BrokerFault } from '../brokers/conformance';

export type FaultedRequest = 'read' | 'positions' | 'place' | 'modify' | 'cancel';

export class FakeFaults {
  private readonly pending: { fault: BrokerFault; on: FaultedRequest | undefined }[] = [];
  private readonly held = new Set<NodeJS.Timeout>();

  constructor(
    /** what `drop_socket` does: the fake closes its sockets */
    private readonly dropSockets: () => void,
    /** how long a `timeout_placed` answer is held back */
    private readonly holdMs: number,
  ) {}

  inject(fault: BrokerFault, times = 1, on?: FaultedRequest): void {
    for (let i = 0; i < times; i += 1) {
      if (fault === 'drop_socket') this.dropSockets();
      else this.pending.push({ fault, on });
    }
  }

  /** Takes the first pending fault that concerns a request of this kind. */
  take(kind: FaultedRequest): BrokerFault | undefined {
    const read = kind === 'read' || kind === 'positions';
    const index = this.pending.findIndex(
      ({ fault: f, on }) =>
        (on === undefined || on === kind) &&
        (f === 'token_expired' ||
          (f === 'ip_not_allowed' && !read) ||
          (kind === 'place' && f !== 'ip_not_allowed')),
    );
    return index < 0 ? undefined : this.pending.splice(index, 1)[0]?.fault;
  }

  /** Sends an answer only after the client has given up on it (the `timeout_placed` fault). */
  hold(answer: () => void): void {
    const timer = setTimeout(() => {
      this.held.delete(timer);
      answer();
    }, this.holdMs);
    this.held.add(timer);
  }

  close(): void {
    for (const timer of this.held) clearTimeout(timer);
    this.held.clear();
  }
}

/** What the conformance suite and the benches read of a fake's order writes: when each came, by account. */
export class OrderRequestLog {
  /** epoch ms of every place / modify / cancel request received, refused ones included */
  readonly times: number[] = [];
  /** the same, by the broker's account id */
  readonly byClient = new Map<string, number[]>();
  /** placement requests received (refused and timed-out ones included) */
  placements = 0;

  record(kind: Exclude<FaultedRequest, 'read' | 'positions'>, client: string, at = Date.now()): void {
    this.times.push(at);
    const mine = this.byClient.get(client) ?? [];
    mine.push(at);
    this.byClient.set(client, mine);
    if (kind === 'place') this.placements += 1;
  }
}
