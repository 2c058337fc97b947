import {
  Badge,
  Button,
  Card,
  Divider,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { openSignup } from './authDialog';
import { LandingSection } from './LandingSection';
import { formatInr } from '../../lib/format';
import type { PlanDto } from '@optionpilot/server/contract';
import { periodOf, SPEC_MONTHLY_PLAN } from '../payment/plans';
import { formatInrWhole, GST_RATE_PERCENT } from './pricing';

// What the product does, as it does it: one published (white-box) strategy whose parameters the operator sets
// (the spec's "pre-built option buying strategies", plural, was not true out of the box), and trading statistics
// with the full trade history (the spec's "performance analytics" promised more than that).
export const PLAN_INCLUDES = [
  'White-box option buying strategy with published rules',
  'Advanced risk management',
  'Real-time trade execution',
  'Broker API integration',
  'Trading statistics and full trade history',
  'Market hours monitoring',
] as const;

/** "monthly", "every 3 months", "yearly": how a plan of `months` months is billed. */
function billing(months: number): string {
  if (months === 1) return 'monthly';
  if (months === 12) return 'yearly';
  return `every ${months} months`;
}

/** The plans on sale, one card each (the spec's monthly plan until the server's list is known). */
export function PricingSection({ plans = [SPEC_MONTHLY_PLAN] }: { plans?: readonly PlanDto[] }) {
  return (
    <LandingSection
      id="pricing"
      title="Pricing"
      subtitle={
        plans.length === 1
          ? 'One plan with every feature. No tiers, no per-trade fees from us.'
          : 'Every plan has every feature; they differ only in how long they run. No per-trade fees from us.'
      }
    >
      <SimpleGrid cols={{ base: 1, md: Math.min(plans.length, 3) }} spacing="lg">
        {plans.map((plan) => (
          <PlanCard key={plan.code} plan={plan} />
        ))}
      </SimpleGrid>
    </LandingSection>
  );
}

function PlanCard({ plan }: { plan: PlanDto }) {
  const period = periodOf(plan.months);
  return (
    <Card withBorder shadow="sm" radius="lg" padding="xl" maw={440} w="100%" mx="auto" component="article">
      <Stack gap="md">
        {/* Badge above the title, not beside it, so neither is truncated on a 360 px phone. */}
        <Stack gap={4} align="flex-start">
          <Badge variant="light">Professional Plan</Badge>
          <Title order={3}>{plan.name}</Title>
          <Text size="sm" c="dimmed">
            Billed {billing(plan.months)}
          </Text>
        </Stack>

        <Group gap={6} align="baseline">
          <Text fz={44} fw={800} lh={1}>
            {formatInrWhole(plan.pricePaise)}
          </Text>
          <Text c="dimmed">per {period} + GST</Text>
        </Group>

        <Stack gap={4} aria-label="Price breakdown">
          <Group justify="space-between">
            <Text size="sm">Plan price</Text>
            <Text size="sm">{formatInr(plan.pricePaise)}</Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm">GST ({GST_RATE_PERCENT}%)</Text>
            <Text size="sm">{formatInr(plan.gstPaise)}</Text>
          </Group>
          <Divider my={4} />
          <Group justify="space-between">
            <Text size="sm" fw={700}>
              Total per {period}
            </Text>
            <Text size="sm" fw={700}>
              {formatInr(plan.totalPaise)}
            </Text>
          </Group>
        </Stack>

        <List
          spacing="xs"
          size="sm"
          icon={
            <ThemeIcon size={20} radius="xl" color="teal">
              <IconCheck size={13} stroke={2.5} aria-hidden />
            </ThemeIcon>
          }
        >
          {PLAN_INCLUDES.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>

        <Button size="md" fullWidth onClick={openSignup}>
          Start Trading Now
        </Button>
        <Text size="xs" c="dimmed" ta="center">
          A GST tax invoice is issued for every payment. Broker charges and taxes on your trades are billed by
          your broker.
        </Text>
      </Stack>
    </Card>
  );
}
