// `npm run bench:failover [-- --kills N]`: the engine failover time over N kill -9s (default 10). Two nodes of the
// built server (cluster.ts) on PostgreSQL and Redis (TEST_DATABASE_URL / TEST_REDIS_URL, defaulting to the local
// servers) and the seeded simulated market with positions opening and closing; each round kills the leader with
// SIGKILL, times until the other node reports itself leading on /api/health, then starts the killed node again
// as a follower. Prints each round, the median and the maximum; exit 0 whenever the run completed.
import type { Product } from '../faults/product';
import { median } from '../load/stats';
import { activeTraders } from '../faults/traders';
import { createCluster, engineDetail, until } from './cluster';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
process.env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
const flag = process.argv.indexOf('--kills');
const kills = flag >= 0 ? Number(process.argv[flag + 1]) : 10;
if (!Number.isInteger(kills) || kills < 1)
  throw new Error('--kills takes a whole number of kills, at least 1');

const leads = async (node: Product) => /open position/.test(await engineDetail(node.url));

const cluster = await createCluster({
  controls: { minMovement: '1', stopLoss: '5' },
  env: { SIM_SPEED: '300', SIM_SEED: '20261126', TICK_BROADCAST_MS: '250' },
});
try {
  const nodes: [Product, Product] = [await cluster.start(0), await cluster.start(1)];
  await activeTraders(nodes[0].url, 2);
  const times: number[] = [];
  for (let round = 1; round <= kills; round += 1) {
    const leader = (await leads(nodes[0])) ? 0 : 1;
    const other = 1 - leader;
    const openBefore = await engineDetail(nodes[leader].url);
    await nodes[leader].kill();
    const killedAt = Date.now();
    const detail = await until(
      `node ${other} leading`,
      async () => {
        const text = await engineDetail(nodes[other].url);
        return /open position/.test(text) ? text : null;
      },
      60_000,
    );
    const ms = Date.now() - killedAt;
    times.push(ms);
    console.log(
      `kill ${round}: node ${other} leads after ${ms} ms (before: ${openBefore}; after: ${detail})`,
    );
    nodes[leader] = await cluster.start(leader);
  }
  console.log(
    `failover over ${kills} kill -9s: median ${median(times)} ms, max ${Math.max(...times)} ms (target: within 10,000 ms)`,
  );
} finally {
  await cluster.close();
}
