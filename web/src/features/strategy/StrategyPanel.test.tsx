import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleStrategy } from '../../live/testing';
import { STRATEGY_RISK_NOTE, StrategyPanel } from './StrategyPanel';

function value(label: string): string | null {
  const panel = screen.getByRole('region', { name: 'How the strategy works' });
  return within(panel).getByText(label).nextElementSibling?.textContent ?? null;
}

describe('StrategyPanel', () => {
  beforeEach(() => resetLiveStore());

  it('shows the live rules, parameters and trading day from the store with a risk note', () => {
    useLiveStore.getState().setStrategy({
      ...sampleStrategy({ putEnabled: false }),
      rules: ['CALL: 3 bullish candles in a row.', 'Stop 20 premium points below entry.'],
    });
    renderWithProviders(<StrategyPanel />);
    expect(screen.getByText('CALL: 3 bullish candles in a row.')).toBeTruthy();
    expect(screen.getByText('Consecutive-candle breakout · 1-minute candles')).toBeTruthy();
    expect(value('Target (premium)')).toBe('40 pts');
    expect(value('Puts (PE)')).toBe('Off');
    expect(value('Market hours')).toBe('09:15–15:30 IST');
    expect(value('New trades')).toBe('09:15–15:00 IST');
    expect(value('Square-off')).toBe('15:15 IST');
    expect(screen.getByText(STRATEGY_RISK_NOTE)).toBeTruthy();
  });

  it('follows every change the live store receives, without reloading', () => {
    useLiveStore.getState().setStrategy(sampleStrategy());
    renderWithProviders(<StrategyPanel />);
    expect(screen.getByText('Trading enabled')).toBeTruthy();
    act(() => {
      useLiveStore.getState().setStrategy({
        ...sampleStrategy({ tradingEnabled: false, putEnabled: false, stopLoss: 25, squareOffTime: '15:20' }),
        session: { ...sampleStrategy().session, squareOff: '15:20' },
      });
    });
    expect(screen.getByText('Trading paused')).toBeTruthy();
    expect(value('Stop loss (premium)')).toBe('25 pts');
    expect(value('Puts (PE)')).toBe('Off');
    expect(value('Square-off')).toBe('15:20 IST');
  });

  it('says the demo market closes nothing by the clock', () => {
    useLiveStore
      .getState()
      .setStrategy({ ...sampleStrategy(), session: { ...sampleStrategy().session, mode: 'always' } });
    renderWithProviders(<StrategyPanel />);
    expect(value('Square-off')).toBe('None (demo market)');
  });

  it('waits for the first description', () => {
    renderWithProviders(<StrategyPanel />);
    expect(screen.getByLabelText('Loading strategy')).toBeTruthy();
  });
});
