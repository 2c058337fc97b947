import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TradingSettingsDto } from '@optionpilot/server/contract';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleBot } from '../../live/testing';
import { AlgoControlCard } from './AlgoControlCard';
import { STOP_ORDER_DESCRIPTION, STOP_ORDER_LABEL } from './TradingSettingsDialog';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';

const SETTINGS: TradingSettingsDto = {
  orderType: 'SLM',
  targetSetting: 40,
  tradeQuantity: 1,
  lotSize: 65,
  strategyId: null,
  strategies: [],
};

function algoSwitch(): HTMLInputElement {
  return screen.getByRole('switch', { name: 'CE ATM-1 / PE ATM+1' }) as HTMLInputElement;
}

function routes(settings: TradingSettingsDto = SETTINGS) {
  return mockApi({
    'GET /api/user/trading-settings': { body: settings },
    'PUT /api/user/trading-settings': (req) => ({ body: { ...(req.body as object), lotSize: 65 } }),
    'PUT /api/user/bot': (req) => {
      const enabled = (req.body as { enabled: boolean }).enabled;
      return { body: sampleBot({ enabled, isRunning: enabled }) };
    },
  });
}

describe('Algo Trading Control', () => {
  beforeEach(() => {
    resetLiveStore();
    window.localStorage.setItem('token', 'jwt');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the server state of the switch', () => {
    routes();
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: true }));
    renderWithProviders(<AlgoControlCard />);
    expect(algoSwitch().checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Trading Settings' })).toBeTruthy();
  });

  it('turning on opens the dialog; an invalid quantity is refused without a request', async () => {
    const api = routes();
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: false, isRunning: false }));
    renderWithProviders(<AlgoControlCard />);
    fireEvent.click(algoSwitch());
    const lots = (await screen.findByLabelText('Trade Quantity (lots)')) as HTMLInputElement;
    expect(screen.getByText('1 × 65 = 65 qty')).toBeTruthy();
    // One plain statement of what the stop order does, without a contradicting "stop-limit".
    expect(screen.getAllByDisplayValue(STOP_ORDER_LABEL).length).toBeGreaterThan(0);
    expect(screen.getByText(STOP_ORDER_DESCRIPTION)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/stop-limit/i);
    fireEvent.change(lots, { target: { value: '11' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save & Start' }));
    expect(await screen.findByText('tradeQuantity must be between 1 and 10 lots')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(algoSwitch().checked).toBe(false);
  });

  it('shows the strategy the trader follows when several are offered, and keeps it on save', async () => {
    const api = routes({
      ...SETTINGS,
      strategyId: 7,
      strategies: [
        { id: 1, name: 'Consecutive-candle breakout', description: 'The default', isDefault: true },
        { id: 7, name: 'Puts only', description: 'PUT side of the breakout', isDefault: false },
      ],
    });
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: false, isRunning: false }));
    renderWithProviders(<AlgoControlCard />);
    fireEvent.click(algoSwitch());
    await screen.findByLabelText('Trade Quantity (lots)');
    // Mantine's Select renders a visible input and a hidden one for forms; the visible one shows the name.
    expect(screen.getAllByDisplayValue('Puts only').length).toBeGreaterThan(0);
    expect(screen.getByText('PUT side of the breakout')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save & Start' }));
    await waitFor(() => expect(algoSwitch().checked).toBe(true));
    const saved = api.requests.find((r) => r.method === 'PUT' && r.path === '/api/user/trading-settings');
    expect(saved?.body).toMatchObject({ strategyId: 7 });
  });

  it('saving the dialog stores the settings and then switches the bot on', async () => {
    const api = routes();
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: false, isRunning: false }));
    renderWithProviders(<AlgoControlCard />);
    fireEvent.click(algoSwitch());
    const lots = (await screen.findByLabelText('Trade Quantity (lots)')) as HTMLInputElement;
    fireEvent.change(lots, { target: { value: '2' } });
    expect(await screen.findByText('2 × 65 = 130 qty')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save & Start' }));
    await waitFor(() => expect(algoSwitch().checked).toBe(true));
    const puts = api.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path, r.body])).toEqual([
      [
        '/api/user/trading-settings',
        { orderType: 'SLM', targetSetting: 40, tradeQuantity: 2, strategyId: null },
      ],
      ['/api/user/bot', { enabled: true }],
    ]);
    expect(useLiveStore.getState().bot?.enabled).toBe(true);
  });

  it('cancel leaves the bot off', async () => {
    const api = routes();
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: false, isRunning: false }));
    renderWithProviders(<AlgoControlCard />);
    fireEvent.click(algoSwitch());
    await screen.findByLabelText('Trade Quantity (lots)');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByLabelText('Trade Quantity (lots)')).toBeNull());
    expect(algoSwitch().checked).toBe(false);
    expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('a server error on a field is shown under that field and the bot stays off', async () => {
    mockApi({
      'GET /api/user/trading-settings': { body: SETTINGS },
      'PUT /api/user/trading-settings': {
        status: 400,
        body: {
          error: 'validation',
          message: 'targetSetting must be between 15 and 40',
          field: 'targetSetting',
        },
      },
    });
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: false, isRunning: false }));
    renderWithProviders(<AlgoControlCard />);
    fireEvent.click(algoSwitch());
    await screen.findByLabelText('Trade Quantity (lots)');
    fireEvent.click(screen.getByRole('button', { name: 'Save & Start' }));
    expect(await screen.findByText('targetSetting must be between 15 and 40')).toBeTruthy();
    expect(algoSwitch().checked).toBe(false);
  });

  it('turning off calls the server without a dialog', async () => {
    const api = routes();
    useLiveStore.getState().setBotDetail(sampleBot({ enabled: true }));
    renderWithProviders(<AlgoControlCard />);
    fireEvent.click(algoSwitch());
    await waitFor(() => expect(algoSwitch().checked).toBe(false));
    expect(api.called('PUT', '/api/user/bot')[0]?.body).toEqual({ enabled: false });
    expect(screen.queryByLabelText('Trade Quantity (lots)')).toBeNull();
  });
});
