import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi } from '../../../test/http';
import { renderWithProviders } from '../../../test/render';
import { NUMERIC_CONTROLS } from '../controlsApi';
import { resetAdminLiveStore, useAdminLiveStore } from '../live/adminLiveStore';
import { controlAnswer, defaultControls, sampleControl } from '../test/samples';
import { ControlsForm } from './ControlsForm';
import { SwitchControls } from './SwitchControls';

describe('admin controls forms', () => {
  beforeEach(() => {
    resetAdminLiveStore();
    window.localStorage.setItem('token', 'admin-jwt');
    useAdminLiveStore.getState().setControls(defaultControls());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('Quick Settings sends only the changed field and confirms', async () => {
    const api = mockApi({
      'PUT /api/admin/control/stopLoss': (req) => ({
        body: controlAnswer('stopLoss', (req.body as { value: string }).value),
      }),
    });
    renderWithProviders(<ControlsForm fields={['stopLoss', 'target']} label="Quick Settings" />);
    const stop = screen.getByLabelText('Stop Loss (points)') as HTMLInputElement;
    expect(stop.value).toBe('20');
    expect((screen.getByLabelText('Target (points)') as HTMLInputElement).value).toBe('40');
    fireEvent.change(stop, { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Setting updated successfully')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/api/admin/control/stopLoss', { value: '25' }],
    ]);
    await waitFor(() => expect(stop.value).toBe('25'));
  });

  it('shows a refused value under "Error" with the server message', async () => {
    mockApi({
      'PUT /api/admin/control/consecutiveCandles': {
        status: 400,
        body: { error: 'validation', message: 'value must be a whole number from 1 to 10', field: 'value' },
      },
    });
    renderWithProviders(<ControlsForm fields={NUMERIC_CONTROLS} label="Strategy" />);
    fireEvent.change(screen.getByLabelText('Consecutive Candles Required'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('value must be a whole number from 1 to 10')).toBeTruthy();
  });

  it('takes a value pushed by another admin', () => {
    mockApi({});
    renderWithProviders(<ControlsForm fields={['target']} label="Quick Settings" />);
    act(() =>
      useAdminLiveStore.getState().applyControl(sampleControl('target', '35', '2026-03-02T06:00:00Z')),
    );
    expect((screen.getByLabelText('Target (points)') as HTMLInputElement).value).toBe('35');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('the Strategy switches flip one control each', async () => {
    const api = mockApi({
      'PUT /api/admin/control/putEnabled': {
        body: controlAnswer('putEnabled', 'false'),
      },
    });
    renderWithProviders(<SwitchControls />);
    const put = screen.getByRole('switch', { name: 'Enable PUT' }) as HTMLInputElement;
    expect(put.checked).toBe(true);
    fireEvent.click(put);
    await waitFor(() => expect(put.checked).toBe(false));
    expect(api.called('PUT', '/api/admin/control/putEnabled')[0]?.body).toEqual({ value: 'false' });
  });
});
