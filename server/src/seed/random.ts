/** A small seeded PRNG (mulberry32): the same seed gives the same demo data on every platform. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `true` with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Up to `n` distinct items, in the order they were drawn; cheap on long lists. */
  sample<T>(items: readonly T[], n: number): T[] {
    const picked = new Set<number>();
    while (picked.size < Math.min(n, items.length)) picked.add(Math.floor(this.next() * items.length));
    return Array.from(picked, (i) => items[i]!);
  }

  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => Math.floor(this.next() * 256));
  }
}
