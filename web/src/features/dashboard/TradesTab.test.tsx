import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleTrade } from '../../live/testing';
import { TradesTab } from './TradesTab';
import { RecentTradesTable } from './TradesTable';
import { renderWithProviders } from '../../test/render';
import { setViewport } from '../landing/setViewport';
import { mockApi } from '../../test/http';

const winner = sampleTrade({
  id: 1,
  symbol: 'NIFTY26MAR24450CE',
  status: 'closed',
  exitPrice: 160.5,
  pnl: 2600,
  timestamp: '2026-03-02T04:00:00.000Z',
  closedAt: '2026-03-02T04:20:00.000Z',
});
const loser = sampleTrade({
  id: 2,
  symbol: 'NIFTY26MAR24550PE',
  tradeType: 'PUT',
  status: 'closed',
  exitPrice: 100.5,
  pnl: -1300,
  timestamp: '2026-03-02T05:00:00.000Z',
  closedAt: '2026-03-02T05:10:00.000Z',
});
const open = sampleTrade({ id: 3, timestamp: '2026-03-02T06:00:00.000Z' });

describe('Trades tab', () => {
  beforeEach(() => resetLiveStore());
  afterEach(() => vi.unstubAllGlobals());

  it('says when there are no trades yet, and when trading starts, by the session now', async () => {
    mockApi({
      'GET /api/market/session': {
        body: {
          facts: {
            mode: 'market',
            marketOpen: '09:15',
            marketClose: '15:30',
            entryStart: '09:15',
            entryEnd: '15:00',
            squareOff: '15:15',
          },
          marketClock: { kind: 'real', speed: 1 },
          state: {
            at: '2026-11-23T12:00:00.000Z',
            inSession: false,
            inEntryWindow: false,
            nextOpenAt: '2026-11-24T03:45:00.000Z',
          },
        },
      },
    });
    useLiveStore.getState().setTrades([]);
    renderWithProviders(<TradesTab />);
    expect(
      await screen.findByText(
        'No trades yet. The market is closed; trading starts automatically when it opens, 24 Nov 2026, 09:15 IST.',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('0 trades')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists every trade newest first with a count badge, IST dates and coloured P&L', () => {
    useLiveStore.getState().setTrades([winner, loser, open]);
    renderWithProviders(<TradesTab />);
    expect(screen.getByText('Trading History')).toBeTruthy();
    expect(screen.getByLabelText('3 trades').textContent).toBe('3');
    const rows = within(screen.getByRole('table', { name: 'Trading history' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(3);
    const cells = (i: number) =>
      within(rows[i] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    // newest (open) first
    expect(cells(0)).toEqual([
      'NIFTY26MAR24450CEpaper',
      'CALL',
      '₹120.50',
      'Open',
      'Running',
      'open',
      '02 Mar 2026, 11:30 IST',
    ]);
    expect(cells(1)).toEqual([
      'NIFTY26MAR24550PEpaper',
      'PUT',
      '₹120.50',
      '₹100.50',
      '-₹1,300.00',
      'closed',
      '02 Mar 2026, 10:30 IST',
    ]);
    expect(screen.getByText('+₹2,600.00').style.color).toContain('green');
    expect(screen.getByText('-₹1,300.00').style.color).toContain('red');
  });
});

describe('Recent trades', () => {
  it('shows only the first 10 with Open / Running for open trades', () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      sampleTrade({
        id: i + 1,
        timestamp: new Date(Date.parse('2026-03-02T04:00:00.000Z') + i * 60_000).toISOString(),
      }),
    );
    renderWithProviders(<RecentTradesTable trades={many} />);
    const rows = within(screen.getByRole('table', { name: 'Recent trades' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(10);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['09:30:00 IST', 'CALL', '₹120.50', 'Open', 'Running']);
  });

  it("shows an open trade's live mark-to-market P&L once the engine has quoted it", () => {
    renderWithProviders(
      <RecentTradesTable
        trades={[sampleTrade({ id: 1, markPnl: -325.5 }), sampleTrade({ id: 2, markPnl: 650 })]}
      />,
    );
    const rows = within(screen.getByRole('table', { name: 'Recent trades' }))
      .getAllByRole('row')
      .slice(1);
    const pnl = rows.map((row) => within(row).getAllByRole('cell').at(-1)?.textContent);
    expect(pnl).toEqual([expect.stringContaining('325.50'), expect.stringContaining('650.00')]);
    expect(pnl.every((text) => text?.endsWith('live'))).toBe(true);
    expect(pnl[0]).toMatch(/^-/);
  });
});

describe('on a phone (390 px)', () => {
  beforeEach(() => setViewport(390, 844));
  afterEach(() => setViewport(1024, 768));

  it('shows Recent Trades as cards with the full side, the time and the P&L, and no table', () => {
    renderWithProviders(
      <RecentTradesTable
        trades={[
          sampleTrade({ id: 1, markPnl: 52, timestamp: '2026-03-02T04:00:00.000Z' }),
          { ...loser, id: 2 },
        ]}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Recent trades' })).getAllByRole('listitem');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'CALL trade at 09:30:00 IST',
      'PUT trade at 10:30:00 IST',
    ]);
    expect(within(cards[0] as HTMLElement).getByText('CALL')).toBeTruthy();
    expect(cards[0]?.textContent).toContain('+₹52.00');
    expect(cards[0]?.textContent).toContain('Entry ₹120.50 · Exit Open');
    expect(within(cards[1] as HTMLElement).getByText('PUT')).toBeTruthy();
    expect(cards[1]?.textContent).toContain('-₹1,300.00');
    expect(cards[1]?.textContent).toContain('Entry ₹120.50 · Exit ₹100.50');
  });

  it('shows the Trades tab history as cards with symbol, status and date', () => {
    useLiveStore.getState().setTrades([winner]);
    renderWithProviders(<TradesTab />);
    expect(screen.queryByRole('table')).toBeNull();
    const [card] = within(screen.getByRole('list', { name: 'Trading history' })).getAllByRole('listitem');
    expect(card?.textContent).toContain('NIFTY26MAR24450CE');
    expect(card?.textContent).toContain('closed');
    expect(card?.textContent).toContain('02 Mar 2026, 09:30 IST');
    expect(card?.textContent).toContain('+₹2,600.00');
  });
});
