import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconEye } from '@tabler/icons-react';
import { LandingSection } from './LandingSection';
import { formatInrWhole, PLAN_PRICE_PAISE } from './pricing';
import { StatCard, type LandingStat } from './StatCard';

// The first version advertised "500+ active traders" next to "99.9% uptime". SEBI's retail algo framework
// (DOMAIN.md §2) and decisions.md forbid return claims, and a trader count is a social-proof figure we cannot
// verify or keep current from this page, so it is replaced by facts fixed by the product itself:
// the trading window, the price and the number of supported brokers. Uptime is kept as what it is, a service
// target for market hours, not a measured record.
const ABOUT_STATS: readonly LandingStat[] = [
  { value: '9:15-3:00', label: 'Automated trading window, IST' },
  { value: '99.9%', label: 'Uptime target during market hours' },
  { value: formatInrWhole(PLAN_PRICE_PAISE), label: 'One plan, per month + GST' },
  { value: '7', label: 'Indian brokers supported' },
];

export function AboutSection() {
  return (
    <LandingSection id="about" title="About OptionPilot" tinted>
      <Stack gap="xl" maw={880} mx="auto">
        <Text size="lg" ta="center">
          Our mission is to give retail traders in India a disciplined, rules-based way to trade NIFTY 50
          options: the same published rules every session, risk limits applied to every trade, and every order
          placed through the trader&apos;s own broker account. OptionPilot automates the execution; you decide
          whether the bot runs.
        </Text>

        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          {ABOUT_STATS.map((stat) => (
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
