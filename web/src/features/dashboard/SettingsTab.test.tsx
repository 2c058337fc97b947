import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { UserSettingsDto } from '@optionpilot/server/contract';
import { SettingsTab } from './SettingsTab';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleStrategy } from '../../live/testing';

const DEFAULTS: UserSettingsDto = {
  autoTrading: true,
  maxDailyLoss: 5000,
  tradingHoursStart: '09:15',
  tradingHoursEnd: '15:30',
  notifications: { push: true, tradeExecution: true, pnlUpdates: true, systemAlerts: true },
};

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { exact: false }) as HTMLInputElement;
}

describe('Settings tab', () => {
  beforeEach(() => resetLiveStore());
  afterEach(() => vi.unstubAllGlobals());

  it('offers no risk level: nothing would act on it', async () => {
    mockApi({ 'GET /api/user/settings': { body: DEFAULTS } });
    renderWithProviders(<SettingsTab />);
    await screen.findByLabelText('Trading Hours Start (IST)');
    expect(screen.queryByText(/risk level/i)).toBeNull();
  });

  it("says what the trading hours do inside the strategy's window, from the live session facts", async () => {
    mockApi({ 'GET /api/user/settings': { body: DEFAULTS } });
    useLiveStore.getState().setStrategy(sampleStrategy());
    renderWithProviders(<SettingsTab />);
    const note = await screen.findByLabelText('What your trading hours do');
    expect(note.textContent).toBe(
      "New trades from 09:15 to 15:00 IST: your hours inside the strategy's entry window (09:15–15:00 IST). " +
        'Open positions are closed at 15:15 IST; the market is open 09:15–15:30 IST.',
    );
    fireEvent.change(field('Trading Hours End (IST)'), { target: { value: '14:00' } });
    expect(note.textContent).toMatch(/^New trades from 09:15 to 14:00 IST/);
  });

  it('loads the saved settings and saves the whole object', async () => {
    const api = mockApi({
      'GET /api/user/settings': { body: DEFAULTS },
      'PUT /api/user/settings': (req) => ({ body: req.body }),
    });
    renderWithProviders(<SettingsTab />);
    expect((await screen.findByLabelText('Trading Hours Start (IST)')).getAttribute('value')).toBe('09:15');
    fireEvent.click(screen.getByRole('switch', { name: 'P&L updates' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Notifications' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(api.called('PUT', '/api/user/settings')[0]?.body).toEqual({
      ...DEFAULTS,
      notifications: { ...DEFAULTS.notifications, pnlUpdates: false },
    });
  });

  it('refuses hours that end before they start, with the server schema message', async () => {
    const api = mockApi({ 'GET /api/user/settings': { body: DEFAULTS } });
    renderWithProviders(<SettingsTab />);
    await screen.findByLabelText('Trading Hours End (IST)');
    fireEvent.change(field('Trading Hours End (IST)'), { target: { value: '09:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Trading Configuration' }));
    expect(
      (await screen.findAllByText('tradingHoursEnd must be after tradingHoursStart')).length,
    ).toBeGreaterThan(0);
    expect(api.called('PUT', '/api/user/settings')).toHaveLength(0);
  });

  it('shows a server field error under its field and as an error toast', async () => {
    mockApi({
      'GET /api/user/settings': { body: DEFAULTS },
      'PUT /api/user/settings': {
        status: 400,
        body: {
          error: 'validation',
          message: 'maxDailyLoss must be at most ₹10,00,000',
          field: 'maxDailyLoss',
        },
      },
    });
    renderWithProviders(<SettingsTab />);
    await screen.findByLabelText('Max Daily Loss (₹)');
    fireEvent.click(screen.getByRole('button', { name: 'Save Trading Configuration' }));
    expect(await screen.findByText('Error')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getAllByText('maxDailyLoss must be at most ₹10,00,000')).toHaveLength(2),
    );
  });
});
