import { Badge, Box, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { openSignup } from './authDialog';
import { NAV_HEIGHT } from './LandingNav';
import type { PlanDto, SessionFactsDto } from '@optionpilot/server/contract';
import { periodOf, SPEC_MONTHLY_PLAN } from '../payment/plans';
import { formatInrWhole } from './pricing';
import { timeRange } from '../session/sessionText';
import { StatCard, type LandingStat } from './StatCard';

// The trading window comes from the server's session facts (GET /api/market/session); left out until known.
function heroStats(plan: PlanDto, session: SessionFactsDto | undefined): readonly LandingStat[] {
  return [
    ...(session
      ? [{ value: timeRange(session.entryStart, session.entryEnd), label: 'Automated trading window, IST' }]
      : []),
    { value: formatInrWhole(plan.pricePaise), label: `Per ${periodOf(plan.months)}, plus GST` },
    { value: '100%', label: 'Automated execution' },
  ];
}

/**
 * `demoAvailable`: whether this server runs the visitors' demo (GET /api/config); "View Demo" opens it at
 * /test-dashboard, and is left out on a server that has none (a live market feed, or switched off).
 */
export function HeroSection({
  plan = SPEC_MONTHLY_PLAN,
  demoAvailable = true,
  session,
}: {
  plan?: PlanDto | undefined;
  demoAvailable?: boolean;
  session?: SessionFactsDto | undefined;
}) {
  return (
    <Box
      component="section"
      id="home"
      aria-labelledby="home-heading"
      py={80}
      style={{
        scrollMarginTop: NAV_HEIGHT,
        background:
          'linear-gradient(180deg, var(--mantine-color-blue-light) 0%, var(--mantine-color-body) 100%)',
      }}
    >
      <Container size="lg">
        <Stack align="center" ta="center" gap="lg">
          <Badge variant="light" size="lg">
            NIFTY 50 options · white-box strategy
          </Badge>
          <Title order={1} id="home-heading" maw={820} fz={{ base: 32, sm: 48 }} lh={1.15}>
            Automated algorithmic trading for NIFTY 50 options
          </Title>
          <Text size="lg" c="dimmed" maw={680}>
            OptionPilot runs a published, rules-based options-buying strategy on the NIFTY 50 index through
            your own broker account: entries, stop-loss, trailing stop, targets and the end-of-day square-off
            are placed for you during market hours, and you can pause the bot at any time.
          </Text>
          <Group justify="center" gap="md">
            <Button size="lg" onClick={openSignup}>
              Start Trading Now
            </Button>
            {demoAvailable && (
              // A plain link: the landing page also renders outside a router (component tests, /login).
              <Button size="lg" variant="default" component="a" href="/test-dashboard">
                View Demo
              </Button>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md" w="100%" maw={720} mt="lg">
            {heroStats(plan, session).map((stat) => (
              <StatCard key={stat.label} stat={stat} valueSize={28} />
            ))}
          </SimpleGrid>
        </Stack>
      </Container>
    </Box>
  );
}
