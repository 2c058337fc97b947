// Today's P&L and Trading Statistics count the open position (issue 18: "₹0.00 beside an open trade at +₹52"), show
// what the figure is made of, and follow each `user:stats` push.
import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleStats } from '../../live/testing';
import { renderWithProviders } from '../../test/render';
import { StatusCards } from './StatusCards';
import { TradingStatsCard } from './TradingStatsCard';

const OPEN_AT_52 = sampleStats({
  todayPnl: 52,
  todayRealisedPnl: 0,
  openPnl: 52,
  openTrades: 1,
  totalPnl: 1052,
  totalRealisedPnl: 1000,
});

describe('P&L with the open position', () => {
  beforeEach(() => resetLiveStore());

  it("Today's P&L shows realised + open, with both parts, and moves with the next push", () => {
    useLiveStore.getState().setStats(OPEN_AT_52);
    renderWithProviders(<StatusCards subscription={undefined} />);
    const card = screen.getByRole('region', { name: "Today's P&L" });
    expect(within(card).getByLabelText("Today's P&L value").textContent).toBe('+₹52.00');
    expect(within(card).getByText('Realised ₹0.00 · Open +₹52.00')).toBeTruthy();
    act(() => useLiveStore.getState().setStats({ ...OPEN_AT_52, todayPnl: -8.5, openPnl: -8.5 }));
    expect(within(card).getByLabelText("Today's P&L value").textContent).toBe('-₹8.50');
    expect(within(card).getByText('Realised ₹0.00 · Open -₹8.50')).toBeTruthy();
  });

  it('Trading Statistics shows the total with its realised and open parts; realised only when nothing is open', () => {
    useLiveStore.getState().setStats(OPEN_AT_52);
    renderWithProviders(<TradingStatsCard />);
    expect(screen.getByLabelText('Total P&L value').textContent).toBe('+₹1,052.00');
    expect(screen.getByText('Realised +₹1,000.00 · Open +₹52.00')).toBeTruthy();
    act(() =>
      useLiveStore
        .getState()
        .setStats({ ...OPEN_AT_52, openPnl: 0, openTrades: 0, totalPnl: 1000, totalRealisedPnl: 1000 }),
    );
    expect(screen.getByText('Realised +₹1,000.00')).toBeTruthy();
  });
});
