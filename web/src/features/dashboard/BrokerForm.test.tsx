import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { browser } from '../../lib/browser';
import {
  ANGEL_FORM_FIELDS,
  brokerOffer,
  CONNECTED_BROKER,
  IP_BLOCKED_BROKER,
  SAVED_BROKER,
} from '../broker/brokerFixtures';
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

const SAVED = SAVED_BROKER;
const CONNECTED = CONNECTED_BROKER;

const BROKERS = {
  brokers: [
    brokerOffer('zerodha', true),
    brokerOffer('upstox', true),
    brokerOffer('angelone', false),
    brokerOffer('fyers', false),
  ],
  egressIp: '203.0.113.77',
};
const WITH_ANGEL = {
  ...BROKERS,
  brokers: [
    brokerOffer('zerodha', true),
    brokerOffer('angelone', true, { form: ANGEL_FORM_FIELDS, redirectLogin: true }),
  ],
};
const ANGEL_SAVED = { ...SAVED_BROKER, brokerType: 'angelone' as const, redirectUrl: '' };

const SERVER_MESSAGE =
  'Credentials saved securely. Press Connect to log in to your broker; trading continues on paper until you switch to Live.';

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

const submit = () => fireEvent.click(screen.getByRole('button', { name: /API Key$/ }));

describe('Broker Connection form', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks for every field, including the secret, before sending anything', async () => {
    const api = mockApi({
      'GET /api/user/broker': { body: null },
      'GET /api/brokers': { body: BROKERS },
    });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Zerodha');
    fillCredentials('kite-key-1234', '   ');
    submit();
    expect(await screen.findByText(MISSING_BROKER_FIELDS)).toBeTruthy();
    expect(api.called('POST', '/api/user/broker')).toHaveLength(0);
  });

  it('sends the credentials, shows the server message and refreshes the user', async () => {
    const api = mockApi({
      'GET /api/user/broker': { body: null },
      'GET /api/brokers': { body: BROKERS },
      'POST /api/user/broker': {
        body: { success: true, message: SERVER_MESSAGE, broker: SAVED, user: USER },
      },
      'GET /api/auth/me': { body: USER },
    });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Upstox');
    fillCredentials('kite-key-1234', 's3cret');
    submit();
    expect(await screen.findByText('Credentials saved')).toBeTruthy();
    expect(screen.getByText(SERVER_MESSAGE)).toBeTruthy();
    expect(api.called('POST', '/api/user/broker')[0]?.body).toEqual({
      brokerType: 'upstox',
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
      'GET /api/brokers': { body: BROKERS },
      'POST /api/user/broker': {
        status: 400,
        body: { error: 'validation', message: 'apiKey is too long', field: 'apiKey' },
      },
    });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Zerodha');
    fillCredentials('x', 'y');
    submit();
    expect(await screen.findByText('Authentication Failed')).toBeTruthy();
    expect(screen.getByText('apiKey is too long')).toBeTruthy();
  });

  it('shows the saved broker with its masked key as Not connected, and Connect leaves for the broker login', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const api = mockApi({
      'GET /api/user/broker': { body: SAVED },
      'GET /api/brokers': { body: BROKERS },
      'POST /api/user/broker/connect': {
        body: {
          loginUrl: 'https://kite.example/connect/login?state=s1',
          expiresAt: '2026-01-06T06:10:00.000Z',
        },
      },
    });
    renderWithProviders(<BrokerForm />);
    expect((await screen.findByLabelText('Saved broker')).textContent).toBe('Zerodha · API key ••••1234');
    expect(screen.getByLabelText('Broker session').textContent).toBe('Not connected');
    expect(screen.getByLabelText('Static IP').textContent).toContain('203.0.113.77');
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://kite.example/connect/login?state=s1'));
    expect(api.called('POST', '/api/user/broker/connect')).toHaveLength(1);
  });

  it('shows a connected session with the account name and expiry, and disconnects', async () => {
    const api = mockApi({
      'GET /api/user/broker': { body: CONNECTED },
      'GET /api/brokers': { body: BROKERS },
      'DELETE /api/user/broker/session': {
        body: { success: true, message: 'Broker disconnected. Trading continues on paper.', broker: SAVED },
      },
      'GET /api/auth/me': { body: USER },
    });
    renderWithProviders(<BrokerForm />);
    expect((await screen.findByLabelText('Saved broker')).textContent).toBe(
      'Zerodha · API key ••••1234 · Asha Rao',
    );
    expect(screen.getByLabelText('Broker session').textContent).toBe('Connected');
    expect(screen.getByText('Session valid until 07 Jan 2026, 06:00 IST')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(screen.getByLabelText('Broker session').textContent).toBe('Not connected'));
    expect(api.called('DELETE', '/api/user/broker/session')).toHaveLength(1);
  });

  it('offers Reconnect for an expired session and shows the fixed broker message', async () => {
    mockApi({
      'GET /api/user/broker': {
        body: {
          ...CONNECTED,
          session: 'expired',
          connected: false,
          lastError: 'Your broker session has expired.',
        },
      },
      'GET /api/brokers': { body: BROKERS },
    });
    renderWithProviders(<BrokerForm />);
    expect(await screen.findByRole('button', { name: 'Reconnect' })).toBeTruthy();
    expect(screen.getByLabelText('Broker session').textContent).toBe('Session expired');
    expect(screen.getByRole('alert').textContent).toBe('Your broker session has expired.');
  });

  it('lists brokers without an integration as coming soon, not selectable', async () => {
    mockApi({ 'GET /api/user/broker': { body: null }, 'GET /api/brokers': { body: BROKERS } });
    renderWithProviders(<BrokerForm />);
    fireEvent.click(screen.getByRole('combobox', { name: /^Broker/ }));
    const soon = await screen.findByRole('option', { name: 'Fyers (coming soon)' });
    expect(soon.getAttribute('data-combobox-disabled') ?? soon.getAttribute('aria-disabled')).toBeTruthy();
    fireEvent.click(soon);
    expect((screen.getByRole('combobox', { name: /^Broker/ }) as HTMLInputElement).value).toBe('');
  });

  it('copies the redirect URL and says Copied!', async () => {
    const copy = vi.spyOn(browser, 'copyText').mockResolvedValue(undefined);
    mockApi({ 'GET /api/user/broker': { body: SAVED }, 'GET /api/brokers': { body: BROKERS } });
    renderWithProviders(<BrokerForm />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy redirect URL' }));
    expect(await screen.findByText('Copied!')).toBeTruthy();
    expect(copy).toHaveBeenCalledWith('https://op.example.in/broker/zerodha/callback');
  });

  it('shows the setup steps of the chosen broker before anything is saved', async () => {
    const copy = vi.spyOn(browser, 'copyText').mockResolvedValue(undefined);
    mockApi({ 'GET /api/user/broker': { body: null }, 'GET /api/brokers': { body: BROKERS } });
    renderWithProviders(<BrokerForm />);
    await chooseBroker('Upstox');
    const steps = await screen.findByLabelText('Upstox setup');
    expect(steps.textContent).toContain('https://op.example.in/broker/upstox/callback');
    expect(steps.textContent).toContain('203.0.113.77');
    expect(steps.textContent).toContain('Upstox developer console');
    fireEvent.click(screen.getByRole('button', { name: 'Copy redirect URL' }));
    await waitFor(() => expect(copy).toHaveBeenCalledWith('https://op.example.in/broker/upstox/callback'));
  });

  it('logs in to a form-login broker through a dialog built from its fields, checking them first', async () => {
    const connected = { ...CONNECTED_BROKER, brokerType: 'angelone' as const };
    let loggedIn = false;
    const api = mockApi({
      // The server's view: connected once the login went through (every view reads it again then).
      'GET /api/user/broker': () => ({ body: loggedIn ? connected : ANGEL_SAVED }),
      'GET /api/brokers': { body: WITH_ANGEL },
      'POST /api/user/broker/login': () => {
        loggedIn = true;
        return { body: { success: true, message: 'Broker Connected', broker: connected } };
      },
      'GET /api/auth/me': { body: USER },
    });
    renderWithProviders(<BrokerForm />);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log in to Angel One' });
    expect(screen.getByRole('button', { name: 'Log in at Angel One instead' })).toBeTruthy();
    fireEvent.change(input('Client code'), { target: { value: 'A123456' } });
    fireEvent.change(input('MPIN'), { target: { value: '12a4' } });
    fireEvent.change(input('TOTP'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('MPIN must be your 4-digit MPIN');
    expect(api.called('POST', '/api/user/broker/login')).toHaveLength(0);
    fireEvent.change(input('MPIN'), { target: { value: '1234' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(api.called('POST', '/api/user/broker/login')).toHaveLength(1));
    expect(api.called('POST', '/api/user/broker/login')[0]?.body).toEqual({
      fields: { clientCode: 'A123456', mpin: '1234', totp: '123456' },
    });
    await waitFor(() => expect(screen.getByLabelText('Broker session').textContent).toBe('Connected'), {
      timeout: 5_000,
    });
  });

  it('says IP not allowed with the IP to whitelist, and resumes orders when the trader says it is done', async () => {
    const api = mockApi({
      'GET /api/user/broker': { body: IP_BLOCKED_BROKER },
      'GET /api/brokers': { body: BROKERS },
      'POST /api/user/broker/resume': {
        body: { success: true, message: 'Orders to your broker may go again.', broker: CONNECTED_BROKER },
      },
    });
    renderWithProviders(<BrokerForm />);
    expect((await screen.findByLabelText('Broker session')).textContent).toBe('IP not allowed');
    expect(screen.getByRole('alert').textContent).toContain('203.0.113.77');
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'I have whitelisted the IP: resume orders' }));
    await waitFor(() => expect(screen.getByLabelText('Broker session').textContent).toBe('Connected'), {
      timeout: 5_000,
    });
    expect(api.called('POST', '/api/user/broker/resume')).toHaveLength(1);
  });
});
