import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import type { BrokerOfferDto, PlanDto, SessionFactsDto } from '@optionpilot/server/contract';
import { IconAlertTriangle, IconEye } from '@tabler/icons-react';
import { LandingSection } from './LandingSection';
import { periodOf, SPEC_MONTHLY_PLAN } from '../payment/plans';
import { formatInrWhole } from './pricing';
import { StatCard, type LandingStat } from './StatCard';
import { timeRange } from '../session/sessionText';

// The first version advertised "500+ active traders" next to "99.9% uptime". SEBI's retail algo framework
// (DOMAIN.md §2) and decisions.md forbid return claims, and a trader count is a social-proof figure we cannot
// verify or keep current from this page, so it is replaced by facts fixed by the product itself:
// the trading window, the price and the number of supported brokers. Uptime is kept as what it is, a service
// target for market hours, not a measured record. The broker count is the number of brokers with an integration
// (GET /api/brokers), never a fixed figure; until it is known the stat is left out. So is the trading window, which
// comes from the server's session facts (GET /api/market/session), the times the engine trades on.
function aboutStats(plan: PlanDto, session: SessionFactsDto | undefined): readonly LandingStat[] {
  return [
    ...(session
      ? [{ value: timeRange(session.entryStart, session.entryEnd), label: 'Automated trading window, IST' }]
      : []),
    { value: '99.9%', label: 'Uptime target during market hours' },
    { value: formatInrWhole(plan.pricePaise), label: `Every feature, per ${periodOf(plan.months)} + GST` },
  ];
}

/** The broker count stat, or nothing while the list is unknown or empty. */
export function brokerCountStat(brokers: readonly BrokerOfferDto[] | undefined): LandingStat | null {
  const count = (brokers ?? []).filter((b) => b.available).length;
  if (count === 0) return null;
  return {
    value: String(count),
    label: count === 1 ? 'Indian broker supported' : 'Indian brokers supported',
  };
}

export function AboutSection({
  brokers,
  plan = SPEC_MONTHLY_PLAN,
  session,
}: {
  brokers?: readonly BrokerOfferDto[] | undefined;
  plan?: PlanDto | undefined;
  session?: SessionFactsDto | undefined;
}) {
  const brokerStat = brokerCountStat(brokers);
  const stats = brokerStat ? [...aboutStats(plan, session), brokerStat] : aboutStats(plan, session);
  return (
    <LandingSection id="about" title="About OptionPilot" tinted>
      <Stack gap="xl" maw={880} mx="auto">
        <Text size="lg" ta="center">
          Our mission is to give retail traders in India a disciplined, rules-based way to trade NIFTY 50
          options: the same published rules every session, risk limits applied to every trade, and every order
          placed through the trader&apos;s own broker account. OptionPilot automates the execution; you decide
          whether the bot runs.
        </Text>

        <SimpleGrid cols={{ base: 2, sm: stats.length }} spacing="md">
          {stats.map((stat) => (
            <StatCard key={stat.label} stat={stat} valueSize={26} />
          ))}
        </SimpleGrid>

        <Alert variant="light" color="blue" title="A white-box strategy" icon={<IconEye aria-hidden />}>
          The strategy&apos;s rules and current parameters are shown to every subscriber in the dashboard:
          when the bot enters, which strike it buys, where the stop-loss and target sit, how the stop trails
          and when positions are squared off. Nothing is hidden in a black box, and orders are placed through
          your broker under SEBI&apos;s framework for retail algorithmic trading.
        </Alert>

        <Alert
          variant="light"
          color="orange"
          title="Risk disclosure"
          icon={<IconAlertTriangle aria-hidden />}
        >
          Options trading involves substantial risk of loss and is not suitable for every investor; you can
          lose the full premium paid on a trade. Past results, including backtests and simulations, do not
          guarantee future results. OptionPilot is software that executes a published strategy in your own
          account. It is not investment advice, and we make no claim of returns.
        </Alert>
      </Stack>
    </LandingSection>
  );
}
