import { defineConfig } from 'vitest/config';

// One Vitest run covers every package; each package is a project with its own environment.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'engine',
          root: './engine',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // API tests start real servers on ephemeral ports with their own temporary databases.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'cross',
          root: './test',
          include: [
            'integration/**/*.test.ts',
            'scripts/**/*.test.ts',
            'load/**/*.test.ts',
            'brokers/**/*.test.ts',
            'security/**/*.test.ts',
            'deploy/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Crash trials, the contention run and the scale-out nodes start the real server as child processes.
          name: 'faults',
          root: './test',
          include: ['faults/**/*.test.ts', 'scaleout/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
