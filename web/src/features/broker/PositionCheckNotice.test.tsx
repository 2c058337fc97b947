import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { useSessionStore } from '../../stores/session';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { EXPIRED_BROKER } from './brokerFixtures';
import { PositionCheckNotice } from './PositionCheckNotice';

const CHECKED_AT = '2026-01-07T04:00:00.000Z';
const connected = (positionCheck: unknown) => ({
  ...EXPIRED_BROKER,
  session: 'connected',
  connected: true,
  positionCheck,
});
const BROKERS = {
  brokers: [{ type: 'zerodha', label: 'Zerodha', available: true }],
  egressIp: null,
};

describe('Position check notice', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt' });
    resetLiveStore();
  });

  it('appears without a reload when the server says the connection changed (a check finished)', async () => {
    const api = mockApi({
      'GET /api/brokers': { body: BROKERS },
      'GET /api/user/broker': { body: connected(null) },
    });
    renderWithProviders(<PositionCheckNotice now={() => Date.parse(CHECKED_AT) + 60_000} />);
    await waitFor(() => expect(api.called('GET', '/api/user/broker')).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();
    mockApi({
      'GET /api/brokers': { body: BROKERS },
      'GET /api/user/broker': {
        body: connected({
          checkedAt: CHECKED_AT,
          differences: [{ symbol: 'X', optionPilot: 65, broker: 0, action: 'closed', closedTradeIds: [4] }],
        }),
      },
    });
    // What the socket's `user:broker` does.
    useLiveStore.getState().noteBrokerChange();
    expect(await screen.findByText(/Trade #4 was closed/)).toBeTruthy();
  });

  it('says what differed at the broker and what OptionPilot did, checked time in IST', async () => {
    mockApi({
      'GET /api/brokers': { body: BROKERS },
      'GET /api/user/broker': {
        body: connected({
          checkedAt: CHECKED_AT,
          differences: [
            {
              symbol: 'NIFTY13JAN2623400CE',
              optionPilot: 65,
              broker: 0,
              action: 'closed',
              closedTradeIds: [12],
            },
            {
              symbol: 'NIFTY13JAN2623600PE',
              optionPilot: 0,
              broker: 65,
              action: 'not_managed',
              closedTradeIds: [],
            },
          ],
        }),
      },
    });
    renderWithProviders(<PositionCheckNotice now={() => Date.parse(CHECKED_AT) + 60_000} />);
    expect(await screen.findByText("Positions at Zerodha differ from OptionPilot's")).toBeTruthy();
    expect(screen.getByText(/07 Jan 2026, 09:30 IST/)).toBeTruthy();
    expect(
      screen.getByText(
        /NIFTY13JAN2623400CE: OptionPilot held 65 units, Zerodha holds 0\. Trade #12 was closed/,
      ),
    ).toBeTruthy();
    expect(screen.getByText(/NIFTY13JAN2623600PE: .* will not manage or exit it/)).toBeTruthy();
  });

  it('stays hidden when the broker agreed, and once the check is a day old', async () => {
    const agreed = mockApi({
      'GET /api/brokers': { body: BROKERS },
      'GET /api/user/broker': { body: connected({ checkedAt: CHECKED_AT, differences: [] }) },
    });
    const first = renderWithProviders(<PositionCheckNotice now={() => Date.parse(CHECKED_AT)} />);
    await waitFor(() => expect(agreed.called('GET', '/api/user/broker')).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();
    first.unmount();

    const old = mockApi({
      'GET /api/brokers': { body: BROKERS },
      'GET /api/user/broker': {
        body: connected({
          checkedAt: CHECKED_AT,
          differences: [{ symbol: 'X', optionPilot: 65, broker: 0, action: 'closed', closedTradeIds: [1] }],
        }),
      },
    });
    renderWithProviders(<PositionCheckNotice now={() => Date.parse(CHECKED_AT) + 25 * 3_600_000} />);
    await waitFor(() => expect(old.called('GET', '/api/user/broker')).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
