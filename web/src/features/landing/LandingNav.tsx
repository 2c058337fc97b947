import { Box, Burger, Button, Container, Drawer, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { openLogin, openSignup } from './authDialog';
import { SECTIONS, scrollToSection, type SectionId } from './sections';

// Height the sections reserve with scroll-margin-top so a smooth scroll does not hide their headings
// under this sticky bar.
export const NAV_HEIGHT = 64;

export function LandingNav() {
  const [menuOpened, menu] = useDisclosure(false);

  const goFromMenu = (id: SectionId) => {
    menu.close();
    scrollToSection(id);
  };

  return (
    <Box
      component="header"
      pos="sticky"
      top={0}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 100, borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Container size="lg" h={NAV_HEIGHT}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          <UnstyledButton onClick={() => scrollToSection('home')} aria-label="OptionPilot home">
            <Text fw={800} fz="xl" c="blue">
              OptionPilot
            </Text>
          </UnstyledButton>

          <Group component="nav" aria-label="Sections" gap={4} visibleFrom="md">
            {SECTIONS.map((section) => (
              <Button
                key={section.id}
                variant="subtle"
                color="gray"
                onClick={() => scrollToSection(section.id)}
              >
                {section.label}
              </Button>
            ))}
          </Group>

          <Group gap="xs" visibleFrom="md" wrap="nowrap">
            <Button variant="default" onClick={openLogin}>
              Login
            </Button>
            <Button onClick={openSignup}>Get Started</Button>
          </Group>

          <Burger
            opened={menuOpened}
            onClick={menu.toggle}
            hiddenFrom="md"
            aria-label={menuOpened ? 'Close navigation' : 'Open navigation'}
          />
        </Group>
      </Container>

      <Drawer
        opened={menuOpened}
        onClose={menu.close}
        position="right"
        size="xs"
        title="OptionPilot"
        hiddenFrom="md"
      >
        <Stack component="nav" aria-label="Sections menu" gap="xs">
          {SECTIONS.map((section) => (
            <Button
              key={section.id}
              variant="subtle"
              color="gray"
              justify="flex-start"
              onClick={() => goFromMenu(section.id)}
            >
              {section.label}
            </Button>
          ))}
          <Button
            variant="default"
            mt="md"
            onClick={() => {
              menu.close();
              openLogin();
            }}
          >
            Login
          </Button>
          <Button
            onClick={() => {
              menu.close();
              openSignup();
            }}
          >
            Get Started
          </Button>
        </Stack>
      </Drawer>
    </Box>
  );
}
