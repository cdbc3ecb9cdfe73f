import { type LiveSink, LiveStream } from '../../../src/domain/live/liveStream';

/** A sink that records what it takes and refuses more while `full`. */
function recording<T>() {
  const sink = { taken: [] as T[], ended: 0, full: false } as { taken: T[]; ended: number; full: boolean } & LiveSink<T>;
  sink.next = (value) => (sink.taken.push(value), !sink.full);
  sink.end = () => void sink.ended++;
  return sink;
}

describe('LiveStream piped into a sink', () => {
  it('hands over what was queued, then each value as it is pushed, then the end, once', () => {
    const stream = new LiveStream<number>(5, () => undefined);
    stream.push(1);
    stream.push(2);
    const sink = recording<number>();
    stream.pipe(sink);
    expect(sink.taken).toEqual([1, 2]);
    stream.push(3);
    expect(sink.taken).toEqual([1, 2, 3]);
    stream.end();
    stream.resume();
    expect(sink.ended).toBe(1);
  });

  it('holds values back while the sink is full, as for a slow reader (bounded, the oldest lost), and ends only once they are taken', () => {
    let lost = 0;
    const stream = new LiveStream<string>(2, () => undefined, () => `lost ${++lost}`);
    const sink = recording<string>();
    stream.pipe(sink);
    sink.full = true;
    stream.push('a');
    for (const value of ['b', 'c', 'd']) stream.push(value);
    stream.end();
    expect(sink.taken).toEqual(['a']);
    expect(sink.ended).toBe(0);
    sink.full = false;
    stream.resume();
    expect(sink.taken).toEqual(['a', 'lost 1', 'd']);
    expect(sink.ended).toBe(1);
  });

  it('gives nothing more to the sink once the subscriber has left, and runs onClose once', () => {
    let closed = 0;
    const stream = new LiveStream<number>(1, () => closed++);
    const sink = recording<number>();
    stream.pipe(sink);
    sink.full = true;
    stream.push(1);
    stream.push(2);
    void stream.return();
    stream.push(3);
    stream.resume();
    expect(sink.taken).toEqual([1]);
    expect(sink.ended).toBe(0);
    expect(closed).toBe(1);
  });
});
