import { describe, expect, it } from 'vitest';
import { brokerErrorMessage } from './connection';
import { BROKER_ERROR_MESSAGES } from './types';

// The lifecycle itself (state, callback, session storage) is exercised through its routes in
// routes/broker/broker.test.ts; this covers the message a trader reads.
describe('brokerErrorMessage', () => {
  it('names the configured egress IP when the broker refuses our IP', () => {
    const text = brokerErrorMessage('ip_not_allowed', '198.51.100.4');
    expect(text.startsWith(BROKER_ERROR_MESSAGES.ip_not_allowed)).toBe(true);
    expect(text).toContain('198.51.100.4');
  });

  it('says EGRESS_IP is not set rather than inventing an address', () => {
    expect(brokerErrorMessage('ip_not_allowed', undefined)).toMatch(/EGRESS_IP is not set/);
  });

  it.each(['rejected', 'auth_expired', 'rate_limited', 'timeout', 'network'] as const)(
    'uses the fixed text for %s',
    (kind) => {
      expect(brokerErrorMessage(kind, '198.51.100.4')).toBe(BROKER_ERROR_MESSAGES[kind]);
    },
  );
});
