import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { AdminStrategyDto } from '@optionpilot/server/contract';
import { mockApi } from '../../../test/http';
import { renderAdminPage } from '../test/renderAdmin';
import { DEFAULT_PARAMETERS } from './StrategyForm';
import { StrategiesPage } from './StrategiesPage';

const BUILT_IN: AdminStrategyDto = {
  id: 1,
  code: 'breakout',
  name: 'Consecutive-candle breakout',
  description: 'N strong candles, then a breakout',
  kind: 'consecutive_breakout',
  sides: 'BOTH',
  active: true,
  builtIn: true,
  parameters: DEFAULT_PARAMETERS,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('/admin/strategies', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a strategy without name and description with "Missing Information"', async () => {
    const api = mockApi({ 'GET /api/admin/strategies': { body: [BUILT_IN] } });
    renderAdminPage(<StrategiesPage />);
    expect(await screen.findByText('Consecutive-candle breakout')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add strategy' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save strategy' }));
    expect(await screen.findByText('Missing Information')).toBeTruthy();
    expect(screen.getByText('Please fill in strategy name and description.')).toBeTruthy();
    expect(api.called('POST', '/api/admin/strategies')).toHaveLength(0);
  });

  it('adds a strategy with the spec defaults', async () => {
    const api = mockApi({
      'GET /api/admin/strategies': { body: [BUILT_IN] },
      'POST /api/admin/strategies': {
        status: 201,
        body: { success: true, message: 'ok', strategy: BUILT_IN },
      },
    });
    renderAdminPage(<StrategiesPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add strategy' }));
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Morning PE' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Puts only, first hour' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save strategy' }));
    await waitFor(() => expect(api.called('POST', '/api/admin/strategies')).toHaveLength(1));
    expect(api.called('POST', '/api/admin/strategies')[0]?.body).toEqual({
      name: 'Morning PE',
      description: 'Puts only, first hour',
      sides: 'BOTH',
      active: true,
      parameters: {
        interval: 1,
        consecutiveCandles: 3,
        minMovement: 5,
        entryOffset: 2,
        stopLoss: 20,
        target: 40,
        maxLoss: 5000,
        orderType: 'SLM',
      },
    });
  });
});
