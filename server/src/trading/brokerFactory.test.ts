// Each account's broker: paper unless the account enters live (or a restored position was live), then the adapter
// of the trader's own session; the broker name stored with the orders follows.
import { VirtualTime } from '@optionpilot/engine/execution/virtualTime';
import { describe, expect, it, vi } from 'vitest';
import type { Broker, RuntimeAccount } from '@optionpilot/engine';
import type { BrokerModule } from '../brokers/types';
import { createAccountBrokers } from './brokerFactory';
import type { BrokerSessions, LiveSession } from './brokerSessions';

const NOW = Date.UTC(2026, 0, 7, 5, 0);
const liveBroker = { capabilities: { name: 'kite' } } as unknown as Broker;
const createBroker = vi.fn(() => liveBroker);
const module = { type: 'zerodha', createBroker } as unknown as BrokerModule;
const session: LiveSession = {
  module,
  credentials: { apiKey: 'k', apiSecret: 's' },
  session: { accessToken: 't', expiresAt: NOW + 1, accountId: 'AB1234', accountName: 'Asha' },
  key: 'zerodha:AB1234:1:2',
};

function setup(valid: Set<number>) {
  const sessions: BrokerSessions = {
    loadAll: () => Promise.resolve(),
    refresh: () => Promise.resolve(),
    get: (userId) => (valid.has(userId) ? session : undefined),
  };
  const warn = vi.fn();
  const brokers = createAccountBrokers({
    sessions,
    paper: { quote: () => undefined, scheduler: new VirtualTime(NOW).scheduler, tickSize: 0.05 },
    now: () => NOW,
    warn,
  });
  return { brokers, warn };
}

const account = (id: string, paper: boolean): RuntimeAccount => ({
  accountId: id,
  lots: 1,
  maxDailyLoss: 0,
  paper,
});

describe('account brokers', () => {
  it('builds the live adapter over the session for a live account and the paper broker otherwise', () => {
    const { brokers } = setup(new Set([1, 2]));
    expect(brokers.build('1', account('1', false))).toBe(liveBroker);
    expect(createBroker).toHaveBeenCalledWith({ credentials: session.credentials, session: session.session });
    expect(brokers.nameOf('1')).toBe('zerodha');
    const paper = brokers.build('2', account('2', true));
    expect(paper).not.toBe(liveBroker);
    expect(paper.capabilities.name).toMatch(/paper/i);
    expect(brokers.nameOf('2')).toBe('paper');
    expect(brokers.nameOf('3')).toBe('paper');
  });

  it('sends a restored live position back to the broker, or says loudly that it cannot', () => {
    const { brokers, warn } = setup(new Set([1]));
    brokers.restored(
      new Map([
        ['1', false],
        ['2', false],
        ['3', true],
      ]),
    );
    expect(brokers.build('1')).toBe(liveBroker);
    expect(brokers.build('2')).not.toBe(liveBroker);
    expect(warn).toHaveBeenCalledWith(
      '2',
      expect.stringMatching(/live position without a valid broker session/),
    );
    expect(brokers.build('3')).not.toBe(liveBroker);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
