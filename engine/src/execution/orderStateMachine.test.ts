import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyOrderEvent,
  EVENT_TARGETS,
  isLegalTransition,
  ORDER_STATE_GRAPH,
  STATUS_TARGETS,
} from './orderStateMachine';
import type { OrderEvent } from './orderStateMachine';
import { ORDER_STATES } from './orderTypes';
import type { BrokerOrderStatus, Order, OrderState } from './orderTypes';

const T0 = Date.UTC(2026, 10, 23, 4, 0);

function order(overrides: Partial<Order> = {}): Order {
  return {
    clientOrderId: 'OP-test',
    accountId: 'a1',
    purpose: 'entry',
    signalId: 'sig',
    sequence: 0,
    leg: 0,
    intentKey: 'sig:a1:entry#0',
    symbol: 'NIFTY24NOV2624000CE',
    side: 'BUY',
    type: 'LIMIT',
    quantity: 130,
    price: 101,
    product: 'MIS',
    tag: 'OPALGO',
    state: 'INITIALIZED',
    filledQty: 0,
    avgPrice: 0,
    fillIds: [],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

function apply(start: Order, ...events: OrderEvent[]): Order {
  return events.reduce((current, event) => {
    const result = applyOrderEvent(current, event);
    if (!result.ok) throw new Error(result.error.message);
    return result.order;
  }, start);
}

const t = T0 + 1_000;
const fill = (quantity: number, price: number, fillId?: string): OrderEvent => ({
  type: 'FILL',
  time: t,
  quantity,
  price,
  fillId,
});
const status = (s: BrokerOrderStatus, filledQty = 0, avgPrice = 0): OrderEvent => ({
  type: 'STATUS',
  time: t,
  status: s,
  filledQty,
  avgPrice,
  brokerOrderId: 'B1',
});

describe('applyOrderEvent: the happy path', () => {
  it('walks INITIALIZED → SUBMITTED → ACCEPTED → PARTIALLY_FILLED → FILLED and averages fills', () => {
    const done = apply(
      order(),
      { type: 'SUBMIT', time: t },
      { type: 'ACCEPT', time: t, brokerOrderId: 'B1' },
      fill(65, 100),
      fill(65, 101),
    );
    expect(done).toMatchObject({ state: 'FILLED', filledQty: 130, avgPrice: 100.5, brokerOrderId: 'B1' });
  });

  it('records what market protection actually sent and what was asked', () => {
    const sent = apply(order({ type: 'MARKET', price: undefined }), {
      type: 'SUBMIT',
      time: t,
      sent: { type: 'LIMIT', price: 103 },
    });
    expect(sent).toMatchObject({ state: 'SUBMITTED', type: 'LIMIT', price: 103, protectedFrom: 'MARKET' });
  });
});

describe('applyOrderEvent: races (table)', () => {
  const cases: { name: string; start: Partial<Order>; events: OrderEvent[]; expected: Partial<Order> }[] = [
    {
      name: 'fill completing the order while a cancel is pending → FILLED',
      start: { state: 'CANCEL_PENDING', brokerOrderId: 'B1' },
      events: [fill(130, 100)],
      expected: { state: 'FILLED', filledQty: 130 },
    },
    {
      name: 'partial fill while a cancel is pending stays CANCEL_PENDING with the fill counted',
      start: { state: 'CANCEL_PENDING', brokerOrderId: 'B1' },
      events: [fill(65, 100)],
      expected: { state: 'CANCEL_PENDING', filledQty: 65 },
    },
    {
      name: 'cancel confirmed after a partial fill → CANCELLED keeping the fill',
      start: { state: 'CANCEL_PENDING', filledQty: 65, avgPrice: 100 },
      events: [{ type: 'CANCEL', time: t }],
      expected: { state: 'CANCELLED', filledQty: 65 },
    },
    {
      name: 'late partial fill after CANCELLED is kept: stays CANCELLED, lateFill set',
      start: { state: 'CANCELLED' },
      events: [fill(65, 99)],
      expected: { state: 'CANCELLED', filledQty: 65, avgPrice: 99, lateFill: true },
    },
    {
      name: 'late fill completing a CANCELLED order → FILLED (the cancel lost the race)',
      start: { state: 'CANCELLED', filledQty: 65, avgPrice: 100 },
      events: [fill(65, 102)],
      expected: { state: 'FILLED', filledQty: 130, avgPrice: 101, lateFill: true },
    },
    {
      name: 'late fill reported by status after CANCELLED is kept',
      start: { state: 'CANCELLED', brokerOrderId: 'B1' },
      events: [status('CANCELLED', 65, 98)],
      expected: { state: 'CANCELLED', filledQty: 65, avgPrice: 98, lateFill: true },
    },
    {
      name: 'cancel refused by the broker resumes PARTIALLY_FILLED',
      start: { state: 'CANCEL_PENDING', filledQty: 65, avgPrice: 100 },
      events: [{ type: 'CANCEL_REJECT', time: t, reason: 'already traded' }],
      expected: { state: 'PARTIALLY_FILLED', filledQty: 65 },
    },
    {
      name: 'fill before the acknowledgement, then the late ack attaches the broker id',
      start: { state: 'SUBMITTED' },
      events: [fill(130, 100), { type: 'ACCEPT', time: t, brokerOrderId: 'B9' }],
      expected: { state: 'FILLED', brokerOrderId: 'B9' },
    },
    {
      name: 'UNKNOWN resolved by a status query: FILLED',
      start: { state: 'UNKNOWN' },
      events: [status('FILLED', 130, 100.25)],
      expected: { state: 'FILLED', filledQty: 130, avgPrice: 100.25, brokerOrderId: 'B1' },
    },
    {
      name: 'UNKNOWN resolved by a status query: REJECTED',
      start: { state: 'UNKNOWN' },
      events: [{ type: 'STATUS', time: t, status: 'REJECTED', filledQty: 0, avgPrice: 0, reason: 'margin' }],
      expected: { state: 'REJECTED', reason: 'margin' },
    },
    {
      name: 'UNKNOWN resolved by a status query: open',
      start: { state: 'UNKNOWN' },
      events: [status('ACCEPTED')],
      expected: { state: 'ACCEPTED', brokerOrderId: 'B1' },
    },
    {
      name: 'UNKNOWN resolved by the broker reporting OPEN with fills: PARTIALLY_FILLED',
      start: { state: 'UNKNOWN' },
      events: [status('ACCEPTED', 65, 100)],
      expected: { state: 'PARTIALLY_FILLED', filledQty: 65 },
    },
    {
      name: 'a status reporting fewer fills than known keeps ours',
      start: { state: 'PARTIALLY_FILLED', filledQty: 65, avgPrice: 100 },
      events: [status('ACCEPTED', 0, 0)],
      expected: { state: 'PARTIALLY_FILLED', filledQty: 65, avgPrice: 100 },
    },
    {
      name: 'the same fill delivered twice counts once',
      start: { state: 'ACCEPTED' },
      events: [fill(65, 100, 'F1'), fill(65, 100, 'F1')],
      expected: { state: 'PARTIALLY_FILLED', filledQty: 65, fillIds: ['F1'] },
    },
    {
      name: 'an accepted modify applies the amendment',
      start: { state: 'ACCEPTED' },
      events: [
        { type: 'MODIFY_REQUEST', time: t, amendment: { price: 105 } },
        { type: 'MODIFY_ACCEPT', time: t },
      ],
      expected: { state: 'ACCEPTED', price: 105, pendingAmendment: undefined },
    },
    {
      name: 'a refused modify drops the amendment',
      start: { state: 'ACCEPTED' },
      events: [
        { type: 'MODIFY_REQUEST', time: t, amendment: { price: 105 } },
        { type: 'MODIFY_REJECT', time: t },
      ],
      expected: { state: 'ACCEPTED', price: 101, pendingAmendment: undefined },
    },
    {
      name: 'a modify cutting the quantity to what is filled completes the order',
      start: { state: 'PARTIALLY_FILLED', filledQty: 65, avgPrice: 100 },
      events: [
        { type: 'MODIFY_REQUEST', time: t, amendment: { quantity: 65 } },
        { type: 'MODIFY_ACCEPT', time: t },
      ],
      expected: { state: 'FILLED', quantity: 65 },
    },
    {
      name: 'exchange rejection after the broker acknowledged → REJECTED',
      start: { state: 'ACCEPTED', brokerOrderId: 'B1' },
      events: [{ type: 'REJECT', time: t, reason: 'RMS: insufficient margin' }],
      expected: { state: 'REJECTED', reason: 'RMS: insufficient margin' },
    },
    {
      name: 'a place timeout makes the order UNKNOWN',
      start: { state: 'SUBMITTED' },
      events: [{ type: 'TIMEOUT', time: t }],
      expected: { state: 'UNKNOWN' },
    },
  ];

  it.each(cases)('$name', ({ start, events, expected }) => {
    const result = apply(order(start), ...events);
    for (const [key, value] of Object.entries(expected)) expect(result[key as keyof Order]).toEqual(value);
  });

  const refused: { name: string; start: Partial<Order>; event: OrderEvent; code: string }[] = [
    {
      name: 'fill on a REJECTED order',
      start: { state: 'REJECTED' },
      event: fill(65, 100),
      code: 'ILLEGAL_TRANSITION',
    },
    {
      name: 'stale OPEN status for a CANCELLED order',
      start: { state: 'CANCELLED' },
      event: status('ACCEPTED'),
      code: 'ILLEGAL_TRANSITION',
    },
    {
      name: 'accept of a REJECTED order',
      start: { state: 'REJECTED' },
      event: { type: 'ACCEPT', time: t, brokerOrderId: 'B' },
      code: 'ILLEGAL_TRANSITION',
    },
    {
      name: 'cancel request before the broker acknowledged',
      start: { state: 'SUBMITTED' },
      event: { type: 'CANCEL_REQUEST', time: t },
      code: 'ILLEGAL_TRANSITION',
    },
    {
      name: 'submitting twice',
      start: { state: 'SUBMITTED' },
      event: { type: 'SUBMIT', time: t },
      code: 'ILLEGAL_TRANSITION',
    },
    {
      name: 'overfill',
      start: { state: 'PARTIALLY_FILLED', filledQty: 100, avgPrice: 1 },
      event: fill(65, 100),
      code: 'OVERFILL',
    },
    { name: 'zero-quantity fill', start: { state: 'ACCEPTED' }, event: fill(0, 100), code: 'INVALID_FILL' },
    {
      name: 'FILLED status with a short quantity',
      start: { state: 'ACCEPTED' },
      event: status('FILLED', 65, 100),
      code: 'INVALID_FILL',
    },
    {
      name: 'modify below the filled quantity',
      start: { state: 'PARTIALLY_FILLED', filledQty: 65, avgPrice: 1 },
      event: { type: 'MODIFY_REQUEST', time: t, amendment: { quantity: 10 } },
      code: 'INVALID_AMENDMENT',
    },
  ];

  it.each(refused)('refuses $name and changes nothing', ({ start, event, code }) => {
    const result = applyOrderEvent(order(start), event);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(code);
  });
});

describe('applyOrderEvent: copies', () => {
  // `Required` makes this fixture fail to compile when `Order` gains a field, so the copy below is checked for it.
  const full: Required<Order> = {
    clientOrderId: 'OP-full',
    brokerOrderId: 'B9',
    accountId: 'a9',
    purpose: 'stop',
    signalId: 'sig',
    positionId: 'T9',
    sequence: 2,
    leg: 1,
    intentKey: 'T9:stop:2#1',
    symbol: 'NIFTY24NOV2624000CE',
    side: 'SELL',
    type: 'SL',
    quantity: 130,
    price: 99,
    triggerPrice: 100,
    product: 'NRML',
    tag: 'OPALGO',
    state: 'ACCEPTED',
    filledQty: 65,
    avgPrice: 99.5,
    fillIds: ['f1'],
    pendingAmendment: { price: 98 },
    protectedFrom: 'SL-M',
    reason: 'earlier reason',
    lateFill: false,
    createdAt: T0,
    updatedAt: T0,
  };

  it('carries every field into the next version and changes only what the event says', () => {
    const cases: [OrderEvent, Partial<Order>][] = [
      [{ type: 'EXPIRE', time: t }, { state: 'EXPIRED' }],
      [{ type: 'CANCEL_REQUEST', time: t }, { state: 'CANCEL_PENDING' }],
      [
        { type: 'REJECT', time: t, reason: 'RMS' },
        { state: 'REJECTED', reason: 'RMS' },
      ],
      [fill(65, 100.5, 'f2'), { state: 'FILLED', filledQty: 130, avgPrice: 100, fillIds: ['f1', 'f2'] }],
      [status('ACCEPTED', 65, 99.5), { state: 'PARTIALLY_FILLED' }],
    ];
    for (const [event, changes] of cases) {
      const result = applyOrderEvent(full, event);
      expect(result.ok, event.type).toBe(true);
      if (result.ok) expect(result.order, event.type).toStrictEqual({ ...full, updatedAt: t, ...changes });
    }
  });

  it('returns the very same order for an event that changes nothing (nothing to persist)', () => {
    const accepted = order({ state: 'ACCEPTED', brokerOrderId: 'B1' });
    for (const event of [{ type: 'ACCEPT', time: t, brokerOrderId: 'B2' } as const, status('ACCEPTED')]) {
      const result = applyOrderEvent(accepted, event);
      expect(result.ok && result.order).toBe(accepted);
    }
  });
});

describe('transition tables', () => {
  it('only name edges that exist in ORDER_STATE_GRAPH', () => {
    for (const table of [...Object.values(EVENT_TARGETS), ...Object.values(STATUS_TARGETS)]) {
      for (const [from, target] of Object.entries(table) as [string, string][]) {
        if (
          (ORDER_STATES as readonly string[]).includes(target) &&
          (ORDER_STATES as readonly string[]).includes(from)
        ) {
          expect(isLegalTransition(from as OrderState, target as OrderState), `${from} → ${target}`).toBe(
            true,
          );
        }
      }
    }
  });

  it('keeps FILLED and REJECTED terminal and lets CANCELLED/EXPIRED only record a late fill', () => {
    expect(ORDER_STATE_GRAPH.FILLED).toEqual(['FILLED']);
    expect(ORDER_STATE_GRAPH.REJECTED).toEqual(['REJECTED']);
    expect(ORDER_STATE_GRAPH.CANCELLED).toEqual(['CANCELLED', 'FILLED']);
  });
});

const statusArb = fc.constantFrom<BrokerOrderStatus>(
  'ACCEPTED',
  'PARTIALLY_FILLED',
  'FILLED',
  'REJECTED',
  'CANCELLED',
  'EXPIRED',
);
const eventArb: fc.Arbitrary<OrderEvent> = fc.oneof(
  fc.constant<OrderEvent>({ type: 'SUBMIT', time: t }),
  fc.constant<OrderEvent>({ type: 'ACCEPT', time: t, brokerOrderId: 'B1' }),
  fc.constant<OrderEvent>({ type: 'REJECT', time: t, reason: 'r' }),
  fc
    .record({
      quantity: fc.integer({ min: -5, max: 140 }),
      price: fc.integer({ min: 0, max: 200 }),
      id: fc.option(fc.constantFrom('F1', 'F2', 'F3')),
    })
    .map<OrderEvent>(({ quantity, price, id }) => ({
      type: 'FILL',
      time: t,
      quantity,
      price,
      ...(id ? { fillId: id } : {}),
    })),
  fc.constant<OrderEvent>({ type: 'CANCEL_REQUEST', time: t }),
  fc.constant<OrderEvent>({ type: 'CANCEL_REJECT', time: t }),
  fc.constant<OrderEvent>({ type: 'CANCEL', time: t }),
  fc
    .integer({ min: 1, max: 200 })
    .map<OrderEvent>((quantity) => ({ type: 'MODIFY_REQUEST', time: t, amendment: { quantity } })),
  fc.constant<OrderEvent>({ type: 'MODIFY_ACCEPT', time: t }),
  fc.constant<OrderEvent>({ type: 'MODIFY_REJECT', time: t }),
  fc.constant<OrderEvent>({ type: 'EXPIRE', time: t }),
  fc.constant<OrderEvent>({ type: 'TIMEOUT', time: t }),
  fc
    .record({
      s: statusArb,
      filledQty: fc.integer({ min: 0, max: 140 }),
      avgPrice: fc.integer({ min: 1, max: 200 }),
    })
    .map<OrderEvent>(({ s, filledQty, avgPrice }) => ({
      type: 'STATUS',
      time: t,
      status: s,
      filledQty,
      avgPrice,
    })),
);

describe('applyOrderEvent: properties', () => {
  it('never takes an edge outside the graph and keeps quantities consistent under random event sequences', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORDER_STATES),
        fc.array(eventArb, { maxLength: 40 }),
        (startState, events) => {
          // Start consistent: FILLED carries the whole quantity, PARTIALLY_FILLED some of it.
          const filledQty = startState === 'FILLED' ? 130 : startState === 'PARTIALLY_FILLED' ? 65 : 0;
          let current = order({
            state: startState,
            quantity: 130,
            filledQty,
            avgPrice: filledQty > 0 ? 100 : 0,
          });
          for (const event of events) {
            const result = applyOrderEvent(current, event);
            if (!result.ok) continue; // refused: the order is unchanged by construction
            const next = result.order;
            expect(isLegalTransition(current.state, next.state) || next === current).toBe(true);
            expect(next.filledQty).toBeGreaterThanOrEqual(current.filledQty);
            expect(next.filledQty).toBeLessThanOrEqual(next.quantity);
            if (next.state === 'FILLED') expect(next.filledQty).toBe(next.quantity);
            if (next.state === 'PARTIALLY_FILLED') {
              expect(next.filledQty).toBeGreaterThan(0);
              expect(next.filledQty).toBeLessThan(next.quantity);
            }
            if (current.state === 'FILLED' || current.state === 'REJECTED')
              expect(next.state).toBe(current.state);
            if (current.state === 'CANCELLED' || current.state === 'EXPIRED') {
              expect([current.state, 'FILLED']).toContain(next.state);
            }
            current = next;
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
