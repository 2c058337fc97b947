import type { ComponentType } from 'react';
import { Card, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBolt,
  IconBuildingBank,
  IconChartCandle,
  IconPlugConnected,
  IconRobot,
  IconShieldCheck,
  type IconProps,
} from '@tabler/icons-react';
import type { BrokerOfferDto, SessionFactsDto } from '@optionpilot/server/contract';
import { availableBrokerNames } from '../broker/brokerText';
import { LandingSection } from './LandingSection';

interface Feature {
  title: string;
  description: string;
  Icon: ComponentType<IconProps>;
}

/** The times are the server's session facts (GET /api/market/session), the ones the engine trades on. */
function fullyAutomated(session: SessionFactsDto | undefined): Feature {
  const when = session
    ? `: new trades between ${session.entryStart} and ${session.entryEnd} IST, every open position closed by ${session.squareOff} IST`
    : ' during market hours';
  return {
    title: 'Fully Automated',
    description: `Once your broker is connected and the bot is switched on, it enters and exits without manual clicks${when}. Pause or resume it whenever you want.`,
    Icon: IconRobot,
  };
}

// Descriptions state what the software does, never what it earns (decisions.md, Compliance).
const FEATURES: readonly Feature[] = [
  {
    title: 'Options Strategy',
    description:
      'A published consecutive-candle breakout on the NIFTY 50 index: after a run of strong bullish candles it buys a call one strike in the money (CE ATM−1); after strong bearish candles, a put one strike in the money (PE ATM+1).',
    Icon: IconChartCandle,
  },
  {
    title: 'Risk Management',
    description:
      'Every position gets a stop-loss and a target. Once a trade moves in your favour the stop moves to cost and then trails. A daily loss limit stops the bot for the day, and open positions are squared off before the close.',
    Icon: IconShieldCheck,
  },
  {
    title: 'Broker Integration',
    description:
      'Orders are placed in your own broker account through your own API app, so your funds never leave your broker. API secrets are stored encrypted, and the daily broker login is one click.',
    Icon: IconPlugConnected,
  },
  {
    title: 'Real-time Execution',
    description:
      'Live NIFTY 50 prices are turned into candles as they arrive. A signal places its order at the first price that crosses its trigger, and each trade appears on your dashboard as it happens.',
    Icon: IconBolt,
  },
];

const RATE_LIMITS =
  'Orders carry the algo tag and stay within the order-rate limits of the SEBI retail algorithmic trading framework.';

/**
 * The broker card names only brokers the server has an integration for (GET /api/brokers): the page once listed
 * seven while none could place an order.
 */
export function brokerSupportFeature(offers: readonly BrokerOfferDto[] | undefined): Feature {
  const available = availableBrokerNames(offers ?? []);
  const soon = (offers ?? []).filter((o) => !o.available).map((o) => o.label);
  const supported = available ? `Supported today: ${available}.` : '';
  const coming = soon.length > 0 ? ` Coming soon: ${soon.join(', ')}.` : '';
  return {
    title: 'Broker Support',
    description: `${supported}${coming} ${RATE_LIMITS}`.trim(),
    Icon: IconBuildingBank,
  };
}

export function FeaturesSection({
  brokers,
  session,
}: {
  brokers?: readonly BrokerOfferDto[] | undefined;
  session?: SessionFactsDto | undefined;
}) {
  const features = [fullyAutomated(session), ...FEATURES, brokerSupportFeature(brokers)];
  return (
    <LandingSection
      id="features"
      title="Features"
      subtitle="Everything the bot does is described here and shown in your dashboard: no hidden rules."
      tinted
    >
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {features.map(({ title, description, Icon }) => (
          <Card key={title} withBorder radius="md" padding="lg" component="article">
            <ThemeIcon size={44} radius="md" variant="light" mb="md">
              <Icon size={26} stroke={1.6} aria-hidden />
            </ThemeIcon>
            <Title order={3} fz="lg" mb={6}>
              {title}
            </Title>
            <Text size="sm" c="dimmed" lh={1.6}>
              {description}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </LandingSection>
  );
}
