import { Box } from '@mantine/core';
import { AboutSection } from './AboutSection';
import { ContactSection } from './ContactSection';
import { FeaturesSection } from './FeaturesSection';
import { HeroSection } from './HeroSection';
import { LandingFooter } from './LandingFooter';
import { LandingNav } from './LandingNav';
import { PricingSection } from './PricingSection';

/** The public page at `/` for visitors: product, pricing, about and contact, with login/signup entry points. */
export function LandingPage() {
  return (
    <Box>
      <LandingNav />
      <main>
        <HeroSection />
        <FeaturesSection />
        <PricingSection />
        <AboutSection />
        <ContactSection />
      </main>
      <LandingFooter />
    </Box>
  );
}
