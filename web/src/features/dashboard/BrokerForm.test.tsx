import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { BrokerConnectionDto } from '@optionpilot/server/contract';
import { useSessionStore } from '../../stores/session';
import { BrokerForm, MISSING_BROKER_FIELDS } from './BrokerForm';
import { makeUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';

const USER = makeUser({
  email: 'asha@example.in',
  brokerType: 'zerodha',
  subscriptionStatus: 'active',
  createdAt: '2026-03-01T00:00:00.000Z',
});

const SAVED: BrokerConnectionDto = {
  brokerType: 'zerodha',
  apiKeyMasked: '••••1234',
  status: 'credentials_saved',
  connected: false,
  tokenExpiresAt: null,
  lastError: null,
};

const SERVER_MESSAGE =
  'Credentials saved securely. Broker login arrives with broker integration; trading continues on paper.';

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { exact: false }) as HTMLInputElement;
}

async function chooseBroker(label: string) {
  fireEvent.click(screen.getByRole('combobox', { name: /^Broker/ }));
  fireEvent.click(await screen.findByRole('option', { name: label }));
}

function fillCredentials(key: string, secret: string) {
  fireEvent.change(input('API Key'), { target: { value: key } });
  fireEvent.change(input('API Secret'), { target: { value: secret } });
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: /Broker$/ }));

describe('Broker Connection form', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for every field, including the secret, before sending anything', async () => {
    const api = mockApi({ 'GET /api/user/broker': { body: null } });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Zerodha');
    fillCredentials('kite-key-1234', '   ');
    submit();
    expect(await screen.findByText(MISSING_BROKER_FIELDS)).toBeTruthy();
    expect(api.called('POST', '/api/user/broker')).toHaveLength(0);
  });

  it('sends the credentials, shows the server message as Broker Connected and refreshes the user', async () => {
    const api = mockApi({
      'GET /api/user/broker': { body: null },
      'POST /api/user/broker': {
        body: { success: true, message: SERVER_MESSAGE, broker: SAVED, user: USER },
      },
      'GET /api/auth/me': { body: USER },
    });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Angel One');
    fillCredentials('kite-key-1234', 's3cret');
    submit();
    expect(await screen.findByText('Broker Connected')).toBeTruthy();
    expect(screen.getByText(SERVER_MESSAGE)).toBeTruthy();
    expect(api.called('POST', '/api/user/broker')[0]?.body).toEqual({
      brokerType: 'angelone',
      apiKey: 'kite-key-1234',
      apiSecret: 's3cret',
    });
    await waitFor(() => expect(api.called('GET', '/api/auth/me')).toHaveLength(1));
    // The masked key replaces the form contents; the secret is gone from the page.
    expect(screen.getByLabelText('Saved broker').textContent).toContain('••••1234');
    expect(input('API Secret').value).toBe('');
  });

  it('shows a rejection as Authentication Failed with the server message', async () => {
    mockApi({
      'GET /api/user/broker': { body: null },
      'POST /api/user/broker': {
        status: 400,
        body: { error: 'validation', message: 'apiKey is too long', field: 'apiKey' },
      },
    });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Fyers');
    fillCredentials('x', 'y');
    submit();
    expect(await screen.findByText('Authentication Failed')).toBeTruthy();
    expect(screen.getByText('apiKey is too long')).toBeTruthy();
  });

  it('shows the saved broker with its masked key', async () => {
    mockApi({ 'GET /api/user/broker': { body: SAVED } });
    renderWithProviders(<BrokerForm />);
    expect((await screen.findByLabelText('Saved broker')).textContent).toBe(
      'Zerodha · API key ••••1234 · credentials saved',
    );
  });
});
