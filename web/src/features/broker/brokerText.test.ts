import { describe, expect, it } from 'vitest';
import type { BrokerConnectionDto } from '@optionpilot/server/contract';
import { brokerOffer, CONNECTED_BROKER } from './brokerFixtures';
import { availableBrokerNames, shouldOfferReconnect } from './brokerText';

const offer = (label: string, available: boolean) => brokerOffer('zerodha', available, { label });

const connection = (session: BrokerConnectionDto['session']): BrokerConnectionDto => ({
  ...CONNECTED_BROKER,
  connected: session === 'connected',
  session,
});

describe('availableBrokerNames', () => {
  it('names only brokers with an integration', () => {
    expect(availableBrokerNames([offer('Zerodha', true), offer('Groww', false)])).toBe('Zerodha');
    expect(availableBrokerNames([offer('Zerodha', true), offer('Upstox', true)])).toBe('Zerodha and Upstox');
    expect(availableBrokerNames([offer('A', true), offer('B', true), offer('C', true)])).toBe('A, B and C');
    expect(availableBrokerNames([offer('Groww', false)])).toBe('');
  });
});

describe('shouldOfferReconnect', () => {
  // 08:29 and 08:30 IST on 7 Jan 2026 are 02:59 and 03:00 UTC.
  const before = Date.UTC(2026, 0, 7, 2, 59);
  const from = Date.UTC(2026, 0, 7, 3, 0);
  it('offers it from 08:30 IST once the session has expired', () => {
    expect(shouldOfferReconnect(connection('expired'), before)).toBe(false);
    expect(shouldOfferReconnect(connection('expired'), from)).toBe(true);
  });
  it('never for a valid session or no broker', () => {
    expect(shouldOfferReconnect(connection('connected'), from)).toBe(false);
    expect(shouldOfferReconnect(connection('not_connected'), from)).toBe(false);
    expect(shouldOfferReconnect(null, from)).toBe(false);
  });
});
