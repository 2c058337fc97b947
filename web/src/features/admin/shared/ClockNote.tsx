// Admin times come from two clocks: signals and trades carry the market's time (the engine clock, which a simulated
// or replayed market runs faster than real time), logs the server's. Each time column names its clock, and where
// the two differ a note says so, so that 04:14 beside 16:08 reads as what it is.
import { Text } from '@mantine/core';
import { useMarketSession } from '../../session/useMarketSession';

/** Column header of times on the market clock (signals, trades). */
export const MARKET_TIME = 'Market time (IST)';
/** Column header of times on the server's clock (logs). */
export const SERVER_TIME = 'Server time (IST)';

/** Says which clock is which, only while the market clock is not the real one. */
export function MarketClockNote() {
  const session = useMarketSession(0);
  if (!session || session.marketClock.kind === 'real') return null;
  const { kind, speed } = session.marketClock;
  const clock = kind === 'simulated' ? 'the simulated market’s clock' : 'the replayed recording’s clock';
  const pace = speed === 1 ? 'at real speed' : `${speed.toLocaleString('en-IN')}× real time`;
  return (
    <Text size="xs" c="dimmed" mb="xs" role="note">
      {MARKET_TIME} is on {clock} ({pace}), where signals and trades happen; {SERVER_TIME} is the server’s own
      clock, on which logs are written. The two do not match on this market.
    </Text>
  );
}
