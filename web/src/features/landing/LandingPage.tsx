import { Container, Title } from '@mantine/core';

// Placeholder so the router can mount `/` while the full page is being built.
export function LandingPage() {
  return (
    <Container id="home">
      <Title order={1}>OptionPilot</Title>
    </Container>
  );
}
