// Words about brokers that depend on what the server really supports (issue 10 item 7: no claim ahead of code).
import type { BrokerConnectionDto, BrokerOfferDto } from '@optionpilot/server/contract';

/** "Zerodha", "Zerodha and Upstox", "Zerodha, Upstox and Fyers"; empty when none is available. */
export function availableBrokerNames(offers: readonly BrokerOfferDto[]): string {
  const names = offers.filter((o) => o.available).map((o) => o.label);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

/** The Broker Connection card's headline state. */
export const SESSION_TEXT: Record<BrokerConnectionDto['session'], string> = {
  connected: 'Connected',
  ip_blocked: 'IP not allowed',
  expired: 'Session expired',
  not_connected: 'Not connected',
};

/** 08:30 IST: brokers' sessions end overnight; from here on an expired session needs the daily login. */
const RECONNECT_FROM_IST_MINUTES = 8 * 60 + 30;
const IST_OFFSET_MINUTES = 5 * 60 + 30;

/** True when the dashboard should offer the one-click Reconnect: the session has expired and it is 08:30 IST or later. */
export function shouldOfferReconnect(
  connection: BrokerConnectionDto | null | undefined,
  now: number,
): boolean {
  if (connection?.session !== 'expired') return false;
  const istMinutes = (Math.floor(now / 60_000) + IST_OFFSET_MINUTES) % (24 * 60);
  return istMinutes >= RECONNECT_FROM_IST_MINUTES;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * What the dashboard says about the last reconciliation of positions with the broker: one line per difference, or
 * nothing when the broker and OptionPilot agreed or the check is more than a day old.
 */
export function positionCheckLines(
  connection: BrokerConnectionDto | null | undefined,
  brokerLabel: string,
  now: number,
): string[] {
  const check = connection?.positionCheck;
  if (check === null || check === undefined || now - Date.parse(check.checkedAt) > DAY_MS) return [];
  return check.differences.map((d) => {
    const counts = `OptionPilot held ${d.optionPilot} units, ${brokerLabel} holds ${d.broker}`;
    if (d.action === 'not_managed') {
      return `${d.symbol}: ${counts}. OptionPilot did not open the difference and will not manage or exit it.`;
    }
    if (d.closedTradeIds.length === 0) {
      return `${d.symbol}: ${counts}. OptionPilot will close its record once the broker confirms its orders.`;
    }
    const trades = d.closedTradeIds.map((id) => `#${id}`).join(', ');
    return `${d.symbol}: ${counts}. Trade ${trades} was closed in OptionPilot as sold outside it, at the last price.`;
  });
}
