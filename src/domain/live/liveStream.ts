/**
 * What one subscriber is sent, as an async iterator the transport pulls from whenever it has
 * written the previous message. At most `capacity` values wait in it; a subscriber that cannot
 * keep up loses the oldest, so it costs the server a bounded amount of memory whatever it does.
 * With capacity 1 only the latest state waits, which is all a state subscription needs.
 */
export class LiveStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  /**
   * `onClose` runs once, when the subscriber leaves or the stream is ended. `lost` makes the
   * marker a subscriber gets in place of the values it lost; without one they go unmentioned,
   * which suits a stream of states (the latest one says it all).
   */
  constructor(
    private readonly capacity: number,
    private readonly onClose: () => void,
    private readonly lost?: () => T,
  ) {}

  push(value: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value, done: false });
      return;
    }
    this.queue.push(value);
    if (this.queue.length <= this.capacity) return;
    this.queue.shift();
    // The oldest value left gives way to the marker, which then heads what the subscriber reads.
    if (this.lost) this.queue[0] = this.lost();
  }

  /** No more values: what is queued is still delivered, then the iteration completes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
    this.onClose();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The subscriber left: drop what is queued. */
  return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
