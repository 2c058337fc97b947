import type { MouseEvent } from 'react';
import { Anchor, Box, Container, Divider, Group, Stack, Text } from '@mantine/core';
import type { OperatorDetails } from './useOperatorDetails';
import { SECTIONS, scrollToSection, type SectionId } from './sections';

// Real hrefs keep the links usable without JavaScript and openable in a new tab; a normal click smooth-scrolls.
function jumpTo(id: SectionId) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    scrollToSection(id);
  };
}

/** `operator`: the business details from the server's configuration, null until loaded. */
export function LandingFooter({ operator = null }: { operator?: OperatorDetails | null }) {
  return (
    <Box
      component="footer"
      py="xl"
      bg="var(--mantine-color-gray-light)"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Container size="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="lg">
            <Stack gap={4} maw={360}>
              <Text fw={800} fz="lg" c="blue">
                OptionPilot
              </Text>
              <Text size="sm" c="dimmed">
                Automated, rules-based NIFTY 50 options trading through your own broker account.
              </Text>
            </Stack>
            <Group component="nav" aria-label="Footer" gap="md">
              {SECTIONS.map((section) => (
                <Anchor
                  key={section.id}
                  href={`#${section.id}`}
                  size="sm"
                  c="dimmed"
                  onClick={jumpTo(section.id)}
                >
                  {section.label}
                </Anchor>
              ))}
              {operator && (
                <Anchor href={`mailto:${operator.supportEmail}`} size="sm" c="dimmed">
                  {operator.supportEmail}
                </Anchor>
              )}
            </Group>
          </Group>
          <Divider />
          <Text size="xs" c="dimmed">
            Disclosure: options trading involves substantial risk of loss and is not suitable for every
            investor. Past results do not guarantee future results. OptionPilot provides software that
            executes a published, white-box strategy in your own broker account; it is not investment advice
            and makes no claim of returns. Orders are placed by your broker under SEBI&apos;s retail
            algorithmic trading framework.
          </Text>
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} OptionPilot. Prices in Indian rupees; GST extra where shown.
          </Text>
          {operator && (
            <Text size="xs" c="dimmed">
              {operator.legalName}, {operator.address}. GSTIN {operator.gstin}.
            </Text>
          )}
          {/* Plain links (not the router's): the footer also renders outside a router in component tests. */}
          <Group component="nav" aria-label="Legal" gap="md">
            <Anchor href="/terms" size="xs" c="dimmed">
              Terms of Service
            </Anchor>
            <Anchor href="/privacy" size="xs" c="dimmed">
              Privacy Policy
            </Anchor>
          </Group>
          {operator && (
            <Text size="xs" c="dimmed">
              Support:{' '}
              <Anchor href={`mailto:${operator.supportEmail}`} size="xs" c="dimmed">
                {operator.supportEmail}
              </Anchor>
              {' · '}
              <Anchor href={`tel:${operator.supportPhone.replace(/[^+\d]/g, '')}`} size="xs" c="dimmed">
                {operator.supportPhone}
              </Anchor>
              {' · '}
              {operator.supportHours}
            </Text>
          )}
        </Stack>
      </Container>
    </Box>
  );
}
