import { createSourceEventStream, type DocumentNode, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { type LiveSink, LiveStream } from '../../domain/live/liveStream';

/** What a subscription's results go to as they come (LiveResults.pipe). */
export interface ResultSink {
  /** The next result; false when the sink cannot take another yet, and then calls LiveResults' `resume` once it can. */
  take(result: ExecutionResult): boolean;
  /** The events ended, and every result was taken. */
  end(): void;
  /** The events' source threw: nothing more comes. */
  error(err: unknown): void;
}

/**
 * graphql-js' `subscribe`, except that an event costs one execution per distinct operation
 * instead of one per subscriber, and that results are pushed to the subscriber (LiveResults)
 * rather than pulled. Live payloads are shared objects (one per state of what a group of
 * subscribers follows), so the same payload under the same operation (same document object: the
 * document cache parses each query text once; same operation name and variables) gives the same
 * result, and is executed once. Each execution gets a context made fresh for it, so loaders
 * never carry data from one event to the next; it is nobody's in particular, so resolvers below
 * Subscription must not depend on who subscribed. `onResult` sees each execution's result once,
 * however many subscribers share it; `freezeShared` is for tests (see deepFreeze).
 */
export function createSharedSubscribe(
  eventContext: () => unknown,
  { freezeShared = false, onResult }: { freezeShared?: boolean; onResult?: (result: ExecutionResult) => void } = {},
) {
  const documentIds = new WeakMap<DocumentNode, number>();
  let nextDocumentId = 0;
  const results = new SharedResults(eventContext, freezeShared, onResult);

  /**
   * `executeEvent`: what executes the operation for one event (the execution core's compiled
   * function); graphql-js' `execute` when left out.
   */
  return async (args: ExecutionArgs, executeEvent?: EventExecution): Promise<ExecutionResult | LiveResults> => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source; // errors while subscribing
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
    const operation = `${documentId}\n${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`;
    const events = source instanceof LiveStream ? source : pulled(source[Symbol.asyncIterator]());
    return new LiveResults(events, results, operation, executeEvent ?? ((payload, contextValue) => execute({ ...args, rootValue: payload, contextValue })));
  };
}

/** The operation of a subscription executed for one event: `payload` is its root value. */
export type EventExecution = (payload: unknown, contextValue: unknown) => ExecutionResult | Promise<ExecutionResult>;

/** The results of every subscription of one server, by payload and operation. */
class SharedResults {
  private readonly byPayload = new WeakMap<object, Map<string, SharedResult>>();

  constructor(
    private readonly eventContext: () => unknown,
    private readonly freezeShared: boolean,
    private readonly onResult: ((result: ExecutionResult) => void) | undefined,
  ) {}

  /** The result of `payload` under the operation that `operation` names and `execution` executes. */
  of(payload: unknown, operation: string, execution: EventExecution): SharedResult {
    if (typeof payload !== 'object' || payload === null) return this.run(payload, execution);
    if (this.freezeShared) deepFreeze(payload);
    let byOperation = this.byPayload.get(payload);
    if (!byOperation) this.byPayload.set(payload, (byOperation = new Map()));
    let result = byOperation.get(operation);
    if (!result) byOperation.set(operation, (result = this.run(payload, execution)));
    return result;
  }

  private run(payload: unknown, executeEvent: EventExecution): SharedResult {
    return new SharedResult(() => {
      const execution = executeEvent(payload, this.eventContext());
      return execution instanceof Promise ? execution.then((result) => this.finish(result)) : this.finish(execution);
    });
  }

  private finish(result: ExecutionResult): ExecutionResult {
    this.onResult?.(result);
    return this.freezeShared ? deepFreeze(result) : result;
  }
}

/** Where a subscription's events come from: a live stream, or any other async iterator (see `pulled`). */
interface EventSource {
  pipe(sink: EventSink): void;
  resume(): void;
  return(): unknown;
}

type EventSink = LiveSink<unknown> & { error(err: unknown): void };

/**
 * One subscription's results, pushed to its sink (`pipe`) as its events come. From a live stream,
 * that happens in the loop that hands an update to every subscriber of it, and a result already
 * executed for another subscriber is passed on at once: delivering one event to N subscribers
 * costs no promise and no turn of the event loop per subscriber. A subscriber is held back (its
 * stream queues, bounded) while it cannot take more, or while its result is still executing.
 *
 * It is its events' sink itself (`next`, `end`, `error`), and reaches the results through one
 * object every subscription shares, rather than through closures of its own: that loop touches
 * as few objects per subscriber as it can, since with many subscribers each is cold in the cache.
 */
export class LiveResults implements EventSink {
  private sink: ResultSink | undefined;

  /** `operation` names what `execution` executes (see createSharedSubscribe). */
  constructor(
    private readonly events: EventSource,
    private readonly results: SharedResults,
    private readonly operation: string,
    private readonly execution: EventExecution,
  ) {}

  pipe(sink: ResultSink): void {
    this.sink = sink;
    this.events.pipe(this);
  }

  /** The sink can take results again. */
  resume(): void {
    this.events.resume();
  }

  /** The subscriber left: nothing more goes to its sink. */
  return(): void {
    this.sink = undefined;
    void this.events.return();
  }

  /** An event: its result goes to the sink. */
  next(payload: unknown): boolean {
    const shared = this.results.of(payload, this.operation, this.execution);
    if (shared.state === 'ready') return this.sink?.take(shared.result!) ?? true;
    shared.whenSettled(() => {
      if (this.takeSettled(shared)) this.events.resume();
    });
    return false;
  }

  end(): void {
    this.sink?.end();
  }

  error(err: unknown): void {
    this.sink?.error(err);
  }

  /** Whether the sink takes more after this result. */
  private takeSettled(shared: SharedResult): boolean {
    const sink = this.sink;
    if (!sink) return false;
    if (shared.state === 'failed') {
      sink.error(shared.error);
      return false;
    }
    return sink.take(shared.result!);
  }
}

/**
 * One execution's result, shared by every subscriber of one payload under one operation. Once it
 * is there each subscriber takes it as it is; those that came while it executed wait in one list,
 * served in one loop when it is done.
 */
class SharedResult {
  state: 'executing' | 'ready' | 'failed' = 'executing';
  result: ExecutionResult | undefined;
  error: unknown;
  private waiting: (() => void)[] = [];

  constructor(execute: () => ExecutionResult | Promise<ExecutionResult>) {
    try {
      const execution = execute();
      if (execution instanceof Promise) execution.then((result) => this.settle('ready', result), (err) => this.settle('failed', undefined, err));
      else this.settle('ready', execution);
    } catch (err) {
      this.settle('failed', undefined, err);
    }
  }

  whenSettled(then: () => void): void {
    if (this.state === 'executing') this.waiting.push(then);
    else then();
  }

  private settle(state: 'ready' | 'failed', result?: ExecutionResult, error?: unknown): void {
    this.state = state;
    this.result = result;
    this.error = error;
    const waiting = this.waiting;
    this.waiting = [];
    for (const then of waiting) then();
  }
}

/** Events from a source that is not a live stream (a schema's own async generator), pulled one at a time while the sink takes them. */
function pulled(iterator: AsyncIterator<unknown>): EventSource {
  let sink: EventSink | undefined;
  const pull = async () => {
    try {
      for (;;) {
        const event = await iterator.next();
        if (!sink) return;
        if (event.done) return sink.end();
        if (!sink.next(event.value)) return;
      }
    } catch (err) {
      sink?.error(err);
    }
  };
  return {
    pipe(to) {
      sink = to;
      void pull();
    },
    resume: () => void pull(),
    return() {
      sink = undefined;
      return iterator.return?.();
    },
  };
}

/**
 * Tests run with shared payloads and results frozen (`freezeShared`), so code that changes one
 * after it was shared, which every other subscriber of it would then see, throws instead.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
