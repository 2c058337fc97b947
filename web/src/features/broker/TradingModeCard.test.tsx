import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { LIVE_RISK_DISCLOSURE, type TradingModeDto } from '@optionpilot/server/contract';
import { useSessionStore } from '../../stores/session';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { TradingModeCard } from './TradingModeCard';

const PAPER: TradingModeDto = {
  mode: 'paper',
  effectiveMode: 'paper',
  liveAvailable: true,
  riskDisclosure: LIVE_RISK_DISCLOSURE,
};

describe('Trading mode card', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('goes Live only after the risk disclosure is accepted', async () => {
    const api = mockApi({
      'GET /api/user/trading-mode': { body: PAPER },
      'PUT /api/user/trading-mode': { body: { ...PAPER, mode: 'live', effectiveMode: 'live' } },
    });
    const changed = vi.fn();
    renderWithProviders(<TradingModeCard onChange={changed} />);
    expect((await screen.findByLabelText('Trading mode')).textContent).toBe('PAPER');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to Live' }));
    expect(await screen.findByText(LIVE_RISK_DISCLOSURE)).toBeTruthy();
    const goLive = screen.getByRole('button', { name: 'Go Live' });
    expect(goLive.hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Go Live' }));
    await waitFor(() => expect(screen.getByLabelText('Trading mode').textContent).toBe('LIVE'));
    expect(api.called('PUT', '/api/user/trading-mode')[0]?.body).toEqual({ mode: 'live', acceptRisk: true });
    expect(changed).toHaveBeenCalledWith(expect.objectContaining({ effectiveMode: 'live' }));
  });

  it('cannot go Live without a valid broker session, and says why a chosen Live trades on paper', async () => {
    mockApi({
      'GET /api/user/trading-mode': { body: { ...PAPER, liveAvailable: false } },
    });
    const first = renderWithProviders(<TradingModeCard />);
    expect((await screen.findByRole('button', { name: 'Switch to Live' })).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByText('Connect your broker to enable Live.')).toBeTruthy();
    first.unmount();

    mockApi({
      'GET /api/user/trading-mode': { body: { ...PAPER, mode: 'live', liveAvailable: false } },
    });
    renderWithProviders(<TradingModeCard />);
    expect(await screen.findByText(/trading stays on paper until you reconnect/)).toBeTruthy();
    expect(screen.getByLabelText('Trading mode').textContent).toBe('PAPER');
  });
});
