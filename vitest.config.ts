import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One Vitest run covers every package; each package is a project with its own environment.
export default defineConfig({
  test: {
    // Vitest's default (one worker fewer than the CPUs) is a single worker on CI's 2 cores, and most of the suite
    // waits on real servers, sockets and child processes rather than computing: two workers there took the run from
    // 1,023 s to 686 s, every test green. Machines with more cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
