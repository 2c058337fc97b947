import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { NotificationSettingsDto, UserSettingsDto } from '@optionpilot/server/contract';
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
};

const on = { enabled: true, locked: false };
const off = { enabled: false, locked: false };
const NOTIFICATIONS: NotificationSettingsDto = {
  channels: [
    { channel: 'email', label: 'E-mail', available: true },
    { channel: 'telegram', label: 'Telegram', available: true },
    { channel: 'push', label: 'Browser push', available: false },
  ],
  events: [
    {
      event: 'trade_closed',
      label: 'Trade closed',
      description: 'A position was closed, with its P&L',
      audience: 'trader',
      channels: { email: on, telegram: on, push: on },
    },
    {
      event: 'payment_received',
      label: 'Payment received',
      description: 'Receipt with your GST invoice (always e-mailed)',
      audience: 'trader',
      channels: { email: { enabled: true, locked: true }, telegram: off, push: off },
    },
  ],
};

function switchFor(name: string): HTMLInputElement {
  return screen.getByRole('switch', { name }) as HTMLInputElement;
}

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
      'GET /api/user/notifications': { body: NOTIFICATIONS },
    });
    renderWithProviders(<SettingsTab />);
    expect((await screen.findByLabelText('Trading Hours Start (IST)')).getAttribute('value')).toBe('09:15');
    fireEvent.click(screen.getByRole('switch', { name: /^Auto trading/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Trading Configuration' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(api.called('PUT', '/api/user/settings')[0]?.body).toEqual({ ...DEFAULTS, autoTrading: false });
  });

  it('shows notifications as an event × channel table and saves a switch at once', async () => {
    const api = mockApi({
      'GET /api/user/settings': { body: DEFAULTS },
      'GET /api/user/notifications': { body: NOTIFICATIONS },
      'PUT /api/user/notifications': (req) => {
        const change = (req.body as { changes: Array<{ channel: 'email'; enabled: boolean }> }).changes[0]!;
        return {
          body: {
            ...NOTIFICATIONS,
            events: NOTIFICATIONS.events.map((e) =>
              e.event === 'trade_closed'
                ? {
                    ...e,
                    channels: { ...e.channels, [change.channel]: { enabled: change.enabled, locked: false } },
                  }
                : e,
            ),
          },
        };
      },
    });
    renderWithProviders(<SettingsTab />);
    const email = (await screen.findByRole('switch', {
      name: 'E-mail for Trade closed',
    })) as HTMLInputElement;
    expect(email.checked).toBe(true);
    expect(switchFor('Telegram for Payment received').checked).toBe(false);
    // Locked: the receipt carries the tax invoice. Not set up on this server: push.
    expect(switchFor('E-mail for Payment received').disabled).toBe(true);
    expect(switchFor('Browser push for Trade closed').disabled).toBe(true);
    // push is not set up on this server: no switch asks this browser to subscribe
    expect(screen.queryByText(/push notifications/i)).toBeNull();

    fireEvent.click(email);
    await waitFor(() =>
      expect(api.called('PUT', '/api/user/notifications')[0]?.body).toEqual({
        changes: [{ event: 'trade_closed', channel: 'email', enabled: false }],
      }),
    );
    await waitFor(() => expect(switchFor('E-mail for Trade closed').checked).toBe(false));
    expect(api.called('PUT', '/api/user/settings')).toHaveLength(0);
  });

  it('puts a switch back and says why when the server refuses it', async () => {
    mockApi({
      'GET /api/user/settings': { body: DEFAULTS },
      'GET /api/user/notifications': { body: NOTIFICATIONS },
      'PUT /api/user/notifications': {
        status: 400,
        body: { error: 'validation_failed', message: 'changes.0.event: nope', field: 'changes.0.event' },
      },
    });
    renderWithProviders(<SettingsTab />);
    const telegram = (await screen.findByRole('switch', {
      name: 'Telegram for Trade closed',
    })) as HTMLInputElement;
    fireEvent.click(telegram);
    expect(await screen.findByText('changes.0.event: nope')).toBeTruthy();
    await waitFor(() => expect(switchFor('Telegram for Trade closed').checked).toBe(true));
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
