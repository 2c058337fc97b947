import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { StrategyInfoDto } from '@optionpilot/server/contract';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';
import { STRATEGY_RISK_NOTE, StrategyPanel } from './StrategyPanel';

const INFO: StrategyInfoDto = {
  name: 'Consecutive-candle breakout',
  intervalMinutes: 1,
  rules: [
    'CALL: 3 bullish candles in a row, each closing at least 5 points above its open; buy CE ATM-1 above high + 2.',
    'Stop 20 premium points below entry, trailing once 20 points in profit.',
  ],
  params: {
    consecutiveCandles: 3,
    minMovement: 5,
    entryOffset: 2,
    stopLoss: 20,
    target: 40,
    callEnabled: true,
    putEnabled: false,
    tradingEnabled: true,
    squareOffTime: '15:15',
  },
};

describe('StrategyPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the live rules and parameters from the server with a risk note', async () => {
    mockApi({ 'GET /api/strategy': { body: INFO } });
    renderWithProviders(<StrategyPanel />);
    expect(await screen.findByText(INFO.rules[0] as string)).toBeTruthy();
    expect(screen.getByText('Consecutive-candle breakout · 1-minute candles')).toBeTruthy();
    expect(screen.getByText('40 pts')).toBeTruthy();
    expect(screen.getByText('15:15 IST')).toBeTruthy();
    expect(screen.getByText('Off')).toBeTruthy(); // puts disabled by the admins
    expect(screen.getByText(STRATEGY_RISK_NOTE)).toBeTruthy();
  });
});
