// Reads exact byte counts from a stream of chunks of any size: the archive's header, its fixed-size encrypted
// chunks and the bundle's length-prefixed parts are all "the next n bytes", whatever sizes the file system hands out.

export class ByteReader {
  private readonly iterator: AsyncIterator<Uint8Array>;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private done = false;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next `n` bytes; fewer only at the end of the stream (an empty buffer once it is exhausted). */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const all = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    const taken = all.subarray(0, Math.min(n, all.length));
    const rest = all.subarray(taken.length);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return taken;
  }

  /** Exactly `n` bytes, or an error naming `what` when the stream ends first. */
  async readExactly(n: number, what: string, makeError: (message: string) => Error): Promise<Buffer> {
    const bytes = await this.read(n);
    if (bytes.length !== n) throw makeError(`${what} is cut short: the file is truncated`);
    return bytes;
  }

  /** True when no byte is left. */
  async atEnd(): Promise<boolean> {
    await this.fill(1);
    return this.pendingBytes === 0;
  }

  private async fill(n: number): Promise<void> {
    while (this.pendingBytes < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done === true) {
        this.done = true;
        break;
      }
      const chunk = Buffer.from(next.value as Uint8Array);
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
  }
}
