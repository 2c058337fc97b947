import { Box } from '@mantine/core';
import { AboutSection } from './AboutSection';
import { ContactSection } from './ContactSection';
import { FeaturesSection } from './FeaturesSection';
import { HeroSection } from './HeroSection';
import { LandingFooter } from './LandingFooter';
import { LandingNav } from './LandingNav';
import { usePublicConfig } from './useOperatorDetails';
import { PricingSection } from './PricingSection';
import { useBrokerOffers } from '../broker/useBrokerOffers';
import { usePlansOnSale } from '../payment/plans';
import { useMarketSession } from '../session/useMarketSession';

/** The public page at `/` for visitors: product, pricing, about and contact, with login/signup entry points. */
export function LandingPage() {
  // Fetched once here: the contact section and the footer both show the operator's details.
  const config = usePublicConfig();
  const operator = config?.operator ?? null;
  // Which brokers the landing page may name comes from the server's registry, not from this page.
  const offers = useBrokerOffers();
  const brokers = offers.data?.brokers;
  // The plans on sale, as the admin set them; the first is the headline price.
  const plans = usePlansOnSale();
  const headline = plans[0];
  // The trading window the page states is the engine's (one source, also the dashboard's): no refresh needed here.
  const session = useMarketSession(0)?.facts;
  return (
    <Box>
      <LandingNav />
      <main>
        <HeroSection plan={headline} demoAvailable={config?.demoAvailable ?? true} session={session} />
        <FeaturesSection brokers={brokers} session={session} />
        <PricingSection plans={plans} />
        <AboutSection brokers={brokers} plan={headline} session={session} />
        <ContactSection operator={operator} />
      </main>
      <LandingFooter operator={operator} />
    </Box>
  );
}
