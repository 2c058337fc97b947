import { describe, expect, it } from 'vitest';
import { brokerRedirectUrl, brokerSessionState } from './broker';

const NOW = Date.UTC(2026, 0, 6, 6, 0);

describe('brokerSessionState', () => {
  it.each([
    [{ status: 'connected', access_token_enc: 'v1:x', token_expires_at: NOW + 1 }, 'connected'],
    [{ status: 'connected', access_token_enc: 'v1:x', token_expires_at: NOW }, 'expired'],
    [{ status: 'connected', access_token_enc: null, token_expires_at: NOW + 1 }, 'expired'],
    [{ status: 'connected', access_token_enc: 'v1:x', token_expires_at: null }, 'expired'],
    [{ status: 'expired', access_token_enc: null, token_expires_at: null }, 'expired'],
    [{ status: 'credentials_saved', access_token_enc: null, token_expires_at: null }, 'not_connected'],
    [{ status: 'disconnected', access_token_enc: null, token_expires_at: null }, 'not_connected'],
    [{ status: 'error', access_token_enc: null, token_expires_at: null }, 'not_connected'],
  ] as const)('%j is %s', (row, state) => {
    expect(brokerSessionState(row, NOW)).toBe(state);
  });

  it('builds the redirect URL the trader registers at the broker', () => {
    expect(brokerRedirectUrl('https://op.example.in', 'upstox')).toBe(
      'https://op.example.in/broker/upstox/callback',
    );
  });
});
