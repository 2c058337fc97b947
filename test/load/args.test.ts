import { describe, expect, it } from 'vitest';
import {
  clusterServers,
  DEFAULT_DATABASE_SERVER,
  DEFAULT_OPTIONS,
  DEFAULT_REDIS_URL,
  fdsNeeded,
  parseBenchArgs,
  processesForFdLimit,
  spread,
  USAGE,
  UsageError,
} from './args';

describe('parseBenchArgs', () => {
  it('defaults to 1,000 clients over 4 processes for 60 s, every phase', () => {
    const options = parseBenchArgs([]);
    expect(options).toEqual(DEFAULT_OPTIONS);
    expect(options).toMatchObject({ clients: 1000, processes: 4, durationS: 60, json: false });
    expect(options.phases).toEqual(['product', 'rest', 'baseline']);
    expect(options.nodes).toBe(1);
  });

  it('reads --flag value and --flag=value', () => {
    const options = parseBenchArgs([
      '--clients',
      '100',
      '--processes=2',
      '--duration',
      '600',
      '--rest-seconds=0',
      '--json',
    ]);
    expect(options).toMatchObject({ clients: 100, processes: 2, durationS: 600, restSeconds: 0, json: true });
  });

  it('runs phases in the fixed order whatever order they are typed in', () => {
    expect(parseBenchArgs(['--phases', 'baseline,product']).phases).toEqual(['product', 'baseline']);
  });

  it.each([
    [['--clients', 'abc'], /whole number/],
    [['--clients', '-5'], /needs a value|whole number/],
    [['--clients', '0'], /between 1 and/],
    [['--clients'], /needs a value/],
    [['--processes', '8', '--clients', '4'], /cannot exceed/],
    [['--phases', 'product,nope'], /unknown phase "nope"/],
    [['--log-level', 'loud'], /--log-level/],
    [['--json=yes'], /takes no value/],
    [['--bogus'], /unknown option/],
    [['--nodes', '0'], /between 1 and 8/],
    [['--nodes', '9'], /between 1 and 8/],
    [['--nodes'], /needs a value/],
    [['--nodes', '2', '--phases', 'rest,baseline'], /include product in --phases/],
    [['--nodes', '3', '--clients', '2', '--processes', '1'], /--nodes \(3\) cannot exceed --clients \(2\)/],
    [['--rounds', '0'], /between 1 and 50/],
    [['--rounds', '2', '--phases', 'product,rest'], /--rounds 2 interleaves .*include both in --phases/],
  ])('refuses %j with a message naming the problem', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(UsageError);
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });

  it('never signs in more users than there are clients', () => {
    expect(parseBenchArgs(['--clients', '2', '--processes', '1', '--users', '10']).users).toBe(2);
  });
});

describe('--rounds', () => {
  it('is one round (each phase once) by default and takes any count up to 50 with both socket phases', () => {
    expect(parseBenchArgs([]).rounds).toBe(1);
    expect(parseBenchArgs(['--rounds', '8', '--phases', 'product,baseline'])).toMatchObject({
      rounds: 8,
      phases: ['product', 'baseline'],
    });
    expect(parseBenchArgs(['--rounds=50']).rounds).toBe(50);
    expect(USAGE).toMatch(/--rounds R/);
  });
});

describe('--nodes', () => {
  it('adds the cluster phase beside the phases asked for, in either spelling', () => {
    expect(parseBenchArgs(['--nodes', '2', '--phases', 'product'])).toMatchObject({
      nodes: 2,
      phases: ['product'],
    });
    expect(parseBenchArgs(['--nodes=3']).nodes).toBe(3);
  });

  it('is the single node of today with --nodes 1, whatever the phases', () => {
    expect(parseBenchArgs(['--nodes', '1', '--phases', 'baseline'])).toMatchObject({
      nodes: 1,
      phases: ['baseline'],
    });
  });

  it('is described in the usage text', () => {
    expect(USAGE).toMatch(/--nodes N/);
  });

  it('takes PostgreSQL from TEST_DATABASE_URL, else DATABASE_URL, else the local default; Redis likewise', () => {
    expect(clusterServers({})).toEqual({
      databaseServerUrl: DEFAULT_DATABASE_SERVER,
      redisUrl: DEFAULT_REDIS_URL,
    });
    expect(
      clusterServers({
        TEST_DATABASE_URL: 'postgres://t@db:5432/t',
        DATABASE_URL: 'postgres://d@db:5432/d',
        TEST_REDIS_URL: 'redis://cache:6380',
      }),
    ).toEqual({ databaseServerUrl: 'postgres://t@db:5432/t', redisUrl: 'redis://cache:6380' });
    expect(clusterServers({ DATABASE_URL: 'postgres://d@db:5432/d', TEST_DATABASE_URL: '' })).toMatchObject({
      databaseServerUrl: 'postgres://d@db:5432/d',
    });
  });
});

describe('spreading clients', () => {
  it('splits as evenly as possible and loses nobody', () => {
    expect(spread(1000, 4)).toEqual([250, 250, 250, 250]);
    expect(spread(10, 3)).toEqual([4, 3, 3]);
    expect(spread(10, 3).reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('adds processes when the open-files limit is too low for the requested spread', () => {
    // 1,000 sockets in 4 processes need 250 + margin each; a soft limit of 256 fits 128 per process → 8 processes.
    expect(processesForFdLimit(1000, 4, 256)).toBe(8);
    expect(processesForFdLimit(1000, 4, 20_000)).toBe(4);
    expect(processesForFdLimit(1000, 4, fdsNeeded(0))).toBeNull();
  });
});
