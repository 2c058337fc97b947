import { Badge, Button, Card, Divider, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { openSignup } from './authDialog';
import { LandingSection } from './LandingSection';
import { formatInr } from '../../lib/format';
import { formatInrWhole, GST_RATE_PERCENT, priceBreakdown } from './pricing';

const PLAN_INCLUDES = [
  'Pre-built option buying strategies',
  'Advanced risk management',
  'Real-time trade execution',
  'Multi-broker API integration',
  'Performance analytics',
  'Market hours monitoring',
] as const;

export function PricingSection() {
  const price = priceBreakdown();

  return (
    <LandingSection
      id="pricing"
      title="Pricing"
      subtitle="One plan with every feature. No tiers, no per-trade fees from us."
    >
      <Card withBorder shadow="sm" radius="lg" padding="xl" maw={440} mx="auto" component="article">
        <Stack gap="md">
          {/* Badge above the title, not beside it, so neither is truncated on a 360 px phone. */}
          <Stack gap={4} align="flex-start">
            <Badge variant="light">Professional Plan</Badge>
            <Title order={3}>Subscription Plan</Title>
            <Text size="sm" c="dimmed">
              Billed monthly
            </Text>
          </Stack>

          <Group gap={6} align="baseline">
            <Text fz={44} fw={800} lh={1}>
              {formatInrWhole(price.basePaise)}
            </Text>
            <Text c="dimmed">per month + GST</Text>
          </Group>

          <Stack gap={4} aria-label="Price breakdown">
            <Group justify="space-between">
              <Text size="sm">Plan price</Text>
              <Text size="sm">{formatInr(price.basePaise)}</Text>
            </Group>
            <Group justify="space-between">
              <Text size="sm">GST ({GST_RATE_PERCENT}%)</Text>
              <Text size="sm">{formatInr(price.gstPaise)}</Text>
            </Group>
            <Divider my={4} />
            <Group justify="space-between">
              <Text size="sm" fw={700}>
                Total per month
              </Text>
              <Text size="sm" fw={700}>
                {formatInr(price.totalPaise)}
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
            A GST tax invoice is issued for every payment. Broker charges and taxes on your trades are billed
            by your broker.
          </Text>
        </Stack>
      </Card>
    </LandingSection>
  );
}
