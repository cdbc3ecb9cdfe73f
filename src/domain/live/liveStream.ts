/**
 * What takes a stream's values as they come (LiveStream.pipe) rather than pulling them one by
 * one: a transport that fans an update out to many subscribers then does it in one plain loop,
 * with no promise per subscriber.
 */
export interface LiveSink<T> {
  /** The next value; false when the sink cannot take another yet, and then calls the stream's `resume` once it can. */
  next(value: T): boolean;
  /** The stream ended, and every value was taken. */
  end(): void;
}

/**
 * What one subscriber is sent, as an async iterator the transport pulls from whenever it has
 * written the previous message, or pushed into a sink (`pipe`). At most `capacity` values wait in
 * it; a subscriber that cannot keep up loses the oldest, so it costs the server a bounded amount
 * of memory whatever it does. With capacity 1 only the latest state waits, which is all a state
 * subscription needs.
 */
export class LiveStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;
  private sink: LiveSink<T> | undefined;
  /** The sink said it could take no more: values wait in the queue until `resume`. */
  private paused = false;

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
    if (this.sink && !this.paused && this.queue.length === 0) {
      this.paused = !this.sink.next(value);
      return;
    }
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
    if (!this.paused && this.queue.length === 0) this.endSink();
  }

  /**
   * From now on every value goes to `sink` as it comes, those already queued first, in place of
   * `next`; while the sink holds them back they queue as for a subscriber that reads slowly.
   */
  pipe(sink: LiveSink<T>): void {
    this.sink = sink;
    this.resume();
  }

  /** The sink can take values again. */
  resume(): void {
    const sink = this.sink;
    if (!sink) return;
    this.paused = false;
    while (this.queue.length > 0) {
      if (!sink.next(this.queue.shift()!)) {
        this.paused = true;
        return;
      }
      // The sink let go of the stream meanwhile (`return`).
      if (this.sink !== sink) return;
    }
    if (this.ended) this.endSink();
  }

  /** Tells the sink, once, that it has taken everything. */
  private endSink(): void {
    const sink = this.sink;
    this.sink = undefined;
    sink?.end();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The subscriber left: drop what is queued, and give nothing more to its sink. */
  return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.sink = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
