import { Center, Loader } from '@mantine/core';

/** Shown while the stored session is being checked, so guards never flash the wrong page. */
export function FullPageLoader() {
  return (
    <Center h="100vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
