/** A seeded pseudo-random source; the simulator never uses `Math.random`, so a seed replays the same market. */
export interface Random {
  /** uniform in [0, 1) */
  next(): number;
  /** standard normal (Box–Muller) */
  normal(): number;
}

/** Hashes a string seed to 32 bits (cyrb53's mixing, truncated) so `SIM_SEED=demo` works as well as numbers. */
export function seedFromString(seed: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < seed.length; i += 1) {
    const c = seed.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  return h1 >>> 0;
}

/** Creates a mulberry32 generator: tiny, fast and good enough for simulation (not for cryptography). */
export function createRandom(seed: number | string): Random {
  let state = (typeof seed === 'string' ? seedFromString(seed) : seed) >>> 0;
  let spare: number | null = null;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    normal() {
      if (spare !== null) {
        const value = spare;
        spare = null;
        return value;
      }
      // 1 − u keeps the logarithm's argument in (0, 1].
      const r = Math.sqrt(-2 * Math.log(1 - next()));
      const theta = 2 * Math.PI * next();
      spare = r * Math.sin(theta);
      return r * Math.cos(theta);
    },
  };
}
