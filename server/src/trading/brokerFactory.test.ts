// Each account's broker: paper unless the account enters live (or a restored position was live), then the adapter
// of the trader's own session; the broker name stored with the orders follows.
import { VirtualTime } from '@optionpilot/engine/execution/virtualTime';
import { describe, expect, it, vi } from 'vitest';
import { BrokerError, type Broker, type RuntimeAccount } from '@optionpilot/engine';
import { EMPTY } from 'rxjs';
import type { BrokerModule } from '../brokers/types';
import { createAccountBrokers, watchIpRefusals } from './brokerFactory';
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
    end: () => Promise.resolve(false),
    block: () => Promise.resolve(false),
  };
  const warn = vi.fn();
  const sessionEnded = vi.fn();
  const brokers = createAccountBrokers({
    sessions,
    paper: { quote: () => undefined, scheduler: new VirtualTime(NOW).scheduler, tickSize: 0.05 },
    now: () => NOW,
    warn,
    sessionEnded,
  });
  return { brokers, warn, sessionEnded };
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
    expect(createBroker).toHaveBeenCalledWith({
      credentials: session.credentials,
      session: session.session,
      onSessionEnded: expect.any(Function),
    });
    expect(brokers.nameOf('1')).toBe('zerodha');
    const paper = brokers.build('2', account('2', true));
    expect(paper).not.toBe(liveBroker);
    expect(paper.capabilities.name).toMatch(/paper/i);
    expect(brokers.nameOf('2')).toBe('paper');
    expect(brokers.nameOf('3')).toBe('paper');
  });

  it('reports a token the broker refused as the end of that account’s session', () => {
    const { brokers, sessionEnded } = setup(new Set([1]));
    createBroker.mockClear();
    brokers.build('1', account('1', false));
    const [[input]] = createBroker.mock.calls as unknown as [[{ onSessionEnded: () => void }]];
    input.onSessionEnded();
    expect(sessionEnded).toHaveBeenCalledWith('1', session.key);
  });

  it('sends a restored live position back to the broker, or holds its exits and says so loudly', async () => {
    const { brokers, warn } = setup(new Set([1]));
    brokers.restored(
      new Map([
        ['1', false],
        ['2', false],
        ['3', true],
      ]),
    );
    expect(brokers.build('1')).toBe(liveBroker);
    // A live position whose session is gone is never exited on paper: its broker holds exits until a reconnect.
    const disconnected = brokers.build('2');
    expect(disconnected.capabilities.name).toBe('disconnected');
    await expect(disconnected.placeOrder({} as never)).rejects.toMatchObject({ kind: 'auth_expired' });
    expect(brokers.nameOf('2')).toBe('disconnected');
    expect(warn).toHaveBeenCalledWith('2', expect.stringMatching(/exits wait until the trader reconnects/));
    expect(brokers.build('3')).not.toBe(liveBroker);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('blocks the account on the first order the broker refuses for the IP, passing the refusal on', async () => {
    const refused = vi.fn();
    const ip = new BrokerError('ip_not_allowed', 'PermissionException', 'IP not allowed', 'zerodha');
    const rejected = new BrokerError('rejected', 'MarginException', 'no margin', 'zerodha');
    const inner = {
      capabilities: { name: 'kite' },
      orderUpdates$: EMPTY,
      placeOrder: vi.fn().mockRejectedValueOnce(rejected).mockRejectedValueOnce(ip),
      modifyOrder: vi.fn().mockRejectedValue(ip),
      cancelOrder: vi.fn().mockResolvedValue(undefined),
      getOrder: vi.fn().mockRejectedValue(ip),
      getPositions: vi.fn().mockResolvedValue([]),
    } as unknown as Broker;
    const watched = watchIpRefusals(inner, refused);
    await expect(watched.placeOrder({} as never)).rejects.toBe(rejected);
    expect(refused).not.toHaveBeenCalled();
    await expect(watched.placeOrder({} as never)).rejects.toBe(ip);
    await expect(watched.modifyOrder('1', { price: 1 })).rejects.toBe(ip);
    expect(refused).toHaveBeenCalledTimes(2);
    // Reads are not order writes: brokers never check the IP there, so their failures are not a refusal.
    await expect(watched.getOrder({ brokerOrderId: '1' })).rejects.toBe(ip);
    await watched.cancelOrder('1');
    expect(refused).toHaveBeenCalledTimes(2);
    expect(watched.capabilities).toBe(inner.capabilities);
  });

  it('counts failed order writes other than rejections as broker errors, and only writes', async () => {
    const failed = vi.fn();
    const timeout = new BrokerError('timeout', 'ETIMEDOUT', 'timed out', 'fyers');
    const rejected = new BrokerError('rejected', 'RMS', 'no margin', 'fyers');
    const inner = {
      capabilities: { name: 'fyers' },
      orderUpdates$: EMPTY,
      placeOrder: vi.fn().mockRejectedValueOnce(rejected).mockRejectedValueOnce(timeout),
      modifyOrder: vi.fn().mockRejectedValue(new Error('socket hang up')),
      cancelOrder: vi.fn().mockResolvedValue(undefined),
      getOrder: vi.fn().mockRejectedValue(timeout),
      getPositions: vi.fn().mockResolvedValue([]),
    } as unknown as Broker;
    const watched = watchIpRefusals(inner, vi.fn(), failed);
    await expect(watched.placeOrder({} as never)).rejects.toBe(rejected);
    expect(failed).not.toHaveBeenCalled();
    await expect(watched.placeOrder({} as never)).rejects.toBe(timeout);
    await expect(watched.modifyOrder('1', { price: 1 })).rejects.toThrow('socket hang up');
    await expect(watched.getOrder({ brokerOrderId: '1' })).rejects.toBe(timeout);
    await watched.cancelOrder('1');
    expect(failed.mock.calls.map(([e]) => (e as Error).message)).toEqual(['timed out', 'socket hang up']);
  });

  it('reports an IP refusal of a live account with its session key', async () => {
    const ip = new BrokerError('ip_not_allowed', 'UDAPI1154', 'IP', 'upstox');
    const ipRefused = vi.fn();
    createBroker.mockImplementationOnce(
      () => ({ ...liveBroker, placeOrder: () => Promise.reject(ip) }) as unknown as Broker,
    );
    const brokers = createAccountBrokers({
      sessions: {
        loadAll: () => Promise.resolve(),
        refresh: () => Promise.resolve(),
        get: () => session,
        end: () => Promise.resolve(false),
        block: () => Promise.resolve(false),
      },
      paper: { quote: () => undefined, scheduler: new VirtualTime(NOW).scheduler, tickSize: 0.05 },
      now: () => NOW,
      warn: vi.fn(),
      ipRefused,
    });
    await expect(brokers.build('1', account('1', false)).placeOrder({} as never)).rejects.toBe(ip);
    expect(ipRefused).toHaveBeenCalledWith('1', session.key);
  });
});

describe("the broker's daily loss safety net", () => {
  it("arms a live adapter's safety net once a day, and never a paper account's", async () => {
    const onDailyLossLock = vi.fn(() => Promise.resolve());
    const withNet = { capabilities: { name: 'dhan' }, onDailyLossLock } as unknown as Broker;
    const netModule = { type: 'dhan', createBroker: () => withNet } as unknown as BrokerModule;
    const sessions: BrokerSessions = {
      loadAll: () => Promise.resolve(),
      refresh: () => Promise.resolve(),
      get: (userId) => (userId === 1 ? { ...session, module: netModule } : undefined),
      end: () => Promise.resolve(false),
      block: () => Promise.resolve(false),
    };
    const brokers = createAccountBrokers({
      sessions,
      paper: { quote: () => undefined, scheduler: new VirtualTime(NOW).scheduler, tickSize: 0.05 },
      now: () => NOW,
      warn: vi.fn(),
    });
    brokers.build('1', account('1', false));
    brokers.build('2', account('2', true));
    await brokers.dailyLossLocked('1');
    await brokers.dailyLossLocked('1');
    await brokers.dailyLossLocked('2');
    expect(onDailyLossLock).toHaveBeenCalledTimes(1);
  });
});
