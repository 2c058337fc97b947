// Seeded choices for the fault trials: the same FAULT_SEED replays the same kill points. The generator is the
// simulator's own (mulberry32), so there is one seeded PRNG in the code base.
import { createRandom } from '@optionpilot/engine/feeds/random';

/** Floats in [0, 1), the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  const random = createRandom(seed);
  return () => random.next();
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
