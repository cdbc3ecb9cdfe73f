import { createSourceEventStream, type DocumentNode, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';

/**
 * graphql-js' `subscribe`, except that an event costs one execution per distinct operation
 * instead of one per subscriber. Live payloads are shared objects (one per state of what a group
 * of subscribers follows), so the same payload under the same operation (same document object:
 * the document cache parses each query text once; same operation name and variables) gives the
 * same result, and is executed once. Each execution gets a context made fresh for it, so loaders
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
  const results = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

  return async (args: ExecutionArgs) => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source; // errors while subscribing
    const events = source[Symbol.asyncIterator]();
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) documentIds.set(args.document, (documentId = nextDocumentId++));
    const operation = `${documentId}\n${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`;
    const run = async (payload: unknown) => {
      const result = await execute({ ...args, rootValue: payload, contextValue: eventContext() });
      onResult?.(result);
      return freezeShared ? deepFreeze(result) : result;
    };
    return mapEvents(events, (payload): Promise<ExecutionResult> => {
      if (typeof payload !== 'object' || payload === null) return run(payload);
      if (freezeShared) deepFreeze(payload);
      let byOperation = results.get(payload);
      if (!byOperation) results.set(payload, (byOperation = new Map()));
      let result = byOperation.get(operation);
      if (!result) byOperation.set(operation, (result = run(payload)));
      return result;
    });
  };
}

/**
 * The events mapped one by one. A plain iterator rather than an async generator: a generator
 * waiting for the next event cannot be returned until one comes, so a subscriber who leaves a
 * quiet board would never be let go.
 */
function mapEvents<T, U>(source: AsyncIterator<T>, map: (value: T) => Promise<U>): AsyncIterableIterator<U> {
  const finish = async (): Promise<IteratorResult<U>> => {
    await source.return?.();
    return { value: undefined, done: true };
  };
  return {
    async next() {
      const event = await source.next();
      return event.done ? { value: undefined, done: true } : { value: await map(event.value), done: false };
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
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
