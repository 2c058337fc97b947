// Coalesces pushes that arise together into one frame: a risk flush updates every open position in one go, and each
// update was its own admin trade frame to every admin (1,000 open positions: 1,000 frames a second). Items added in
// one turn of the event loop go out together on the next (setImmediate), the newest per key.

export interface TurnBatch<T> {
  add(key: string | number, item: T): void;
}

/** Creates a batch that calls `send` with the items added in one event-loop turn, in order of first addition. */
export function createTurnBatch<T>(send: (items: T[]) => void): TurnBatch<T> {
  let waiting = new Map<string | number, T>();
  let timer: NodeJS.Immediate | undefined;

  const flush = () => {
    timer = undefined;
    const items = [...waiting.values()];
    waiting = new Map();
    send(items);
  };

  return {
    add(key, item) {
      waiting.set(key, item);
      timer ??= setImmediate(flush);
    },
  };
}
