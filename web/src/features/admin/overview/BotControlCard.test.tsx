import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi } from '../../../test/http';
import { renderWithProviders } from '../../../test/render';
import { resetAdminLiveStore, useAdminLiveStore } from '../live/adminLiveStore';
import { controlAnswer, defaultControls, sampleControl } from '../test/samples';
import { BotControlCard } from './BotControlCard';

describe('Bot Control', () => {
  beforeEach(() => {
    resetAdminLiveStore();
    window.localStorage.setItem('token', 'admin-jwt');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows Running from the master switch and pauses with the spec toast', async () => {
    const api = mockApi({
      'POST /api/admin/trading/pause': { body: controlAnswer('tradingEnabled', 'false') },
    });
    useAdminLiveStore.getState().setControls(defaultControls());
    renderWithProviders(<BotControlCard />);
    expect(screen.getByLabelText('Bot state').textContent).toBe('Running');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Trading paused')).toBeTruthy();
    expect(api.called('POST', '/api/admin/trading/pause')).toHaveLength(1);
    // The socket's admin:control echo flips the card, without any reload.
    act(() => {
      useAdminLiveStore
        .getState()
        .applyControl(sampleControl('tradingEnabled', 'false', '2026-03-02T05:00:00Z'));
    });
    expect(screen.getByLabelText('Bot state').textContent).toBe('Paused');
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('resumes with "Trading resumed"', async () => {
    const api = mockApi({
      'POST /api/admin/trading/resume': { body: controlAnswer('tradingEnabled', 'true') },
    });
    useAdminLiveStore.getState().setControls([sampleControl('tradingEnabled', 'false')]);
    renderWithProviders(<BotControlCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await screen.findByText('Trading resumed')).toBeTruthy();
    expect(api.called('POST', '/api/admin/trading/resume')).toHaveLength(1);
  });

  it('flips the CALL switch with a PUT of the string value', async () => {
    const api = mockApi({
      'PUT /api/admin/control/callEnabled': (req) => ({
        body: controlAnswer('callEnabled', (req.body as { value: string }).value),
      }),
    });
    useAdminLiveStore.getState().setControls(defaultControls());
    renderWithProviders(<BotControlCard />);
    const call = screen.getByRole('switch', { name: 'CALL Trading' }) as HTMLInputElement;
    fireEvent.click(call);
    expect(await screen.findByText('Setting updated successfully')).toBeTruthy();
    expect(api.called('PUT', '/api/admin/control/callEnabled')[0]?.body).toEqual({ value: 'false' });
    await waitFor(() => expect(call.checked).toBe(false));
  });

  it('shows the server message under "Error" when a change is refused', async () => {
    mockApi({
      'POST /api/admin/trading/pause': { status: 403, body: { error: 'forbidden', message: 'Admins only' } },
    });
    useAdminLiveStore.getState().setControls(defaultControls());
    renderWithProviders(<BotControlCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Admins only')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByLabelText('Bot state').textContent).toBe('Running');
  });

  it('disables the buttons until the controls are loaded', () => {
    mockApi({});
    renderWithProviders(<BotControlCard />);
    expect((screen.getByRole('button', { name: 'Resume' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
