import { describe, expect, it } from 'vitest';
import { evaluateEligibility, type EligibilityInput } from './eligibility';

const NOW = Date.UTC(2026, 0, 5, 5, 0);

function input(overrides: Partial<EligibilityInput> = {}): EligibilityInput {
  return {
    wallNow: NOW,
    user: { subscription_status: 'active', subscription_end_at: NOW + 86_400_000, disabled_at: null },
    settings: { auto_trading: true, trading_start: '09:15', trading_end: '15:30' },
    trading: { bot_enabled: true, mode: 'paper' },
    global: { tradingEnabled: true, callEnabled: true, putEnabled: true },
    brokerSessionValid: false,
    liveMarket: true,
    marketOpen: true,
    enforceTradingHours: false,
    istTime: '10:30',
    dailyLossLocked: false,
    positionOpen: false,
    ...overrides,
  };
}

describe('evaluateEligibility', () => {
  it('trades an active subscriber with the bot on, on paper', () => {
    expect(evaluateEligibility(input({ side: 'CALL' }))).toEqual({ eligible: true, mode: 'paper' });
  });

  it.each<[string, Partial<EligibilityInput>, string]>([
    [
      'disabled account',
      { user: { subscription_status: 'active', subscription_end_at: NOW + 1, disabled_at: NOW } },
      'Account disabled',
    ],
    [
      'no subscription',
      { user: { subscription_status: 'pending', subscription_end_at: null, disabled_at: null } },
      'Subscription inactive',
    ],
    [
      'stored as expired',
      { user: { subscription_status: 'expired', subscription_end_at: NOW - 1, disabled_at: null } },
      'Subscription expired',
    ],
    [
      'end date passed',
      { user: { subscription_status: 'active', subscription_end_at: NOW, disabled_at: null } },
      'Subscription expired',
    ],
    ['bot off', { trading: { bot_enabled: false, mode: 'paper' } }, 'Bot switched off'],
    [
      'auto trading off',
      { settings: { auto_trading: false, trading_start: '09:15', trading_end: '15:30' } },
      'Auto trading is off in Settings',
    ],
    [
      'paused globally',
      { global: { tradingEnabled: false, callEnabled: true, putEnabled: true } },
      'Trading paused by admin',
    ],
    [
      'both sides off',
      { global: { tradingEnabled: true, callEnabled: false, putEnabled: false } },
      'CALL and PUT trades are disabled',
    ],
    ['daily loss lock', { dailyLossLocked: true }, 'Daily loss limit reached: trading resumes next session'],
    ['market closed', { marketOpen: false }, 'Market closed'],
  ])('refuses with a reason: %s', (_name, overrides, reason) => {
    expect(evaluateEligibility(input(overrides))).toEqual({ eligible: false, mode: 'paper', reason });
  });

  it('refuses only the disabled side of a signal', () => {
    const global = { tradingEnabled: true, callEnabled: false, putEnabled: true };
    expect(evaluateEligibility(input({ global, side: 'CALL' })).reason).toBe('CALL trades are disabled');
    expect(evaluateEligibility(input({ global, side: 'PUT' })).eligible).toBe(true);
    expect(evaluateEligibility(input({ global })).eligible).toBe(true);
  });

  it('keeps the bot running with an open position but refuses a second entry', () => {
    expect(evaluateEligibility(input({ positionOpen: true })).eligible).toBe(true);
    expect(evaluateEligibility(input({ positionOpen: true, side: 'PUT' })).reason).toBe(
      'A position is already open',
    );
  });

  it('applies the trading hours only when told to (market sessions), end exclusive', () => {
    const settings = { auto_trading: true, trading_start: '10:00', trading_end: '14:00' };
    expect(evaluateEligibility(input({ settings, istTime: '09:30' })).eligible).toBe(true);
    for (const istTime of ['09:59', '14:00', '15:00']) {
      expect(evaluateEligibility(input({ settings, istTime, enforceTradingHours: true })).reason).toBe(
        'Outside your trading hours (10:00–14:00 IST)',
      );
    }
    expect(
      evaluateEligibility(input({ settings, istTime: '10:00', enforceTradingHours: true })).eligible,
    ).toBe(true);
  });

  it('is live only with a valid broker session and the live choice', () => {
    expect(evaluateEligibility(input({ trading: { bot_enabled: true, mode: 'live' } })).mode).toBe('paper');
    expect(
      evaluateEligibility(input({ trading: { bot_enabled: true, mode: 'live' }, brokerSessionValid: true }))
        .mode,
    ).toBe('live');
  });

  it('never trades live on simulated or replayed prices, whatever the trader chose', () => {
    const verdict = evaluateEligibility(
      input({ trading: { bot_enabled: true, mode: 'live' }, brokerSessionValid: true, liveMarket: false }),
    );
    expect(verdict).toMatchObject({ eligible: true, mode: 'paper' });
  });
});
