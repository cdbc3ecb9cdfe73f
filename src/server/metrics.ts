import { Kind, type OperationDefinitionNode } from 'graphql';
import type { Cluster, Command, Redis } from 'ioredis';
import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client';

/**
 * Prometheus metrics, served at /metrics. One registry for the process (metrics describe the
 * process, however many servers a test starts in it), with Node's own process metrics (memory,
 * event loop delay, GC) next to ours.
 */
export const registry = new Registry();
// The event loop's delay sampled every 100 ms rather than prom-client's 10: its timer woke the
// process 100 times a second, busy or idle, which bench:live measured in CPU per live update.
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });

let source = () => registry.metrics();

/** What /metrics serves: this process' registry, or what readMetricsFrom said. */
export const metricsText = (): Promise<string> => source();

/** With workers (src/server/workers.ts), /metrics describes the machine: every worker added up. */
export function readMetricsFrom(machine: () => Promise<string>): void {
  source = machine;
}

type Labels = Record<string, string>;

/**
 * Prometheus series that every request updates, made once per set of labels and then updated
 * with plain arithmetic: prom-client checks and hashes the labels again on every `observe` and
 * `inc`, even of a series bound with `labels()`, and that cost more than a microsecond per call
 * (bench:profile, and bench/notes/stack-cost.md). Each metric is registered as prom-client
 * registers the metrics it aggregates across workers: an object answering `get()` in the shape
 * its own metrics answer, so /metrics and the workers' AggregatorRegistry read it alike.
 */
abstract class BoundMetric<S> {
  readonly aggregator = 'sum';
  private readonly series = new Map<string, { labels: Labels; series: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these labels, made on first use; callers keep it. */
  seriesOf(labels: Labels): S {
    const key = Object.values(labels).join('\n');
    let found = this.series.get(key);
    if (!found) this.series.set(key, (found = { labels, series: this.create() }));
    return found.series;
  }

  async get() {
    const values = [...this.series.values()].flatMap(({ labels, series }) => this.values(labels, series));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected abstract create(): S;
  protected abstract values(labels: Labels, series: S): { labels: Labels | Record<string, string | number>; value: number; metricName?: string }[];
}

class HistogramSeries {
  /** By bucket, observations up to its bound (and above the previous one); the last: above every bound. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]) bucket++;
    this.counts[bucket]++;
    this.sum += value;
    this.count++;
  }
}

class BoundHistogram extends BoundMetric<HistogramSeries> {
  constructor(name: string, help: string, private readonly bounds: readonly number[]) {
    super(name, help, 'histogram');
  }

  protected create(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }

  protected values(labels: Labels, { counts, sum, count }: HistogramSeries) {
    let below = 0;
    const buckets = this.bounds.map((le, i) => ({ labels: { le, ...labels }, value: (below += counts[i]), metricName: `${this.name}_bucket` }));
    return [
      ...buckets,
      { labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` },
      { labels, value: sum, metricName: `${this.name}_sum` },
      { labels, value: count, metricName: `${this.name}_count` },
    ];
  }
}

class CounterSeries {
  value = 0;

  inc(): void {
    this.value++;
  }
}

class BoundCounter extends BoundMetric<CounterSeries> {
  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }

  protected create(): CounterSeries {
    return new CounterSeries();
  }

  protected values(labels: Labels, { value }: CounterSeries) {
    return [{ labels, value }];
  }
}

const operations = new BoundHistogram(
  'standings_graphql_operation_duration_seconds',
  'GraphQL queries and mutations (over HTTP and WebSocket) by operation type and root field, from the start of their '
    + 'execution to its result',
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
);

const errors = new Counter({
  name: 'standings_graphql_errors_total',
  help: 'Errors sent to clients, by extensions.code',
  labelNames: ['code'],
  registers: [registry],
});

const userErrors = new Counter({
  name: 'standings_graphql_user_errors_total',
  help: 'userErrors in mutation payloads (expected failures that wrote nothing, which are not GraphQL errors), by '
    + 'mutation field and code',
  labelNames: ['field', 'code'],
  registers: [registry],
});

const unhandledRejections = new Counter({
  name: 'standings_unhandled_rejections_total',
  help: 'Promise rejections that nothing handled: logged, and the process kept serving (see src/server/processFailures.ts)',
  registers: [registry],
});

/** Counts a rejection nothing handled: the serving process' handler calls it (src/server/processFailures.ts). */
export function countUnhandledRejection(): void {
  unhandledRejections.inc();
}

/** Counts a userError: the execution core's contexts tell it of each one (see src/graphql/userErrors.ts). */
export function countUserError(field: string, code: string): void {
  userErrors.inc({ field, code });
}

const lanes = new BoundCounter(
  'standings_graphql_http_requests_total',
  'GraphQL requests over HTTP by how they were served: "known" executed at once (a query text the '
    + 'execution core holds, see src/server/fastLane.ts), "apollo" through Apollo Server',
);
const knownLane = lanes.seriesOf({ lane: 'known' });
const apolloLane = lanes.seriesOf({ lane: 'apollo' });

/** Counts a GraphQL request over HTTP by the lane that serves it. */
export function countLane(known: boolean): void {
  (known ? knownLane : apolloLane).inc();
}

const redisCommands = new BoundHistogram(
  'standings_redis_command_duration_seconds',
  'Redis commands, from writing the command to its reply, by command and outcome',
  [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
);

const activeSubscriptions = new Gauge({
  name: 'standings_active_subscriptions',
  help: 'GraphQL subscriptions currently open over WebSocket',
  registers: [registry],
});

/** For the WebSocket server, which knows how many subscriptions are open. */
export function setActiveSubscriptions(count: number): void {
  activeSubscriptions.set(count);
}

/** Counts an error a client receives: the execution core's formatError calls it for every GraphQL error. */
export function countError(code: string): void {
  errors.inc({ code });
}

/**
 * Times an operation whose execution began at `started` (process.hrtime.bigint()); the execution
 * core calls it for every query and mutation, whatever the transport. Labelled by the root field
 * rather than the client-chosen operation name, which would let any client create unbounded
 * series. Requests refused before execution (unknown key, rate limit, invalid document) appear in
 * the error counter only.
 */
export function observeOperation(operation: OperationDefinitionNode, started: bigint): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  operationTimer(operation).observe(seconds);
}

/** Each parsed operation's series, found once: the document cache keeps one parsed document per query text. */
const timers = new WeakMap<OperationDefinitionNode, HistogramSeries>();

function operationTimer(operation: OperationDefinitionNode): HistogramSeries {
  let timer = timers.get(operation);
  if (!timer) timers.set(operation, (timer = operations.seriesOf(operationLabels(operation))));
  return timer;
}

function operationLabels(operation: OperationDefinitionNode): { type: string; field: string } {
  const fields = new Set(
    operation.selectionSet.selections.map((selection) => (selection.kind === Kind.FIELD ? selection.name.value : '...')),
  );
  return { type: operation.operation, field: fields.size === 1 ? [...fields][0] : 'multiple' };
}

const timedClients = new WeakSet<Redis | Cluster>();
/** On a command being timed: ioredis may pass one through sendCommand again (a queue flushed), and it is timed once. */
const STARTED_AT = Symbol('startedAt');
type TimedCommand = Command & { [STARTED_AT]?: number };

/**
 * Times every command `client` sends, from sending it to its reply, by the name ioredis gives it
 * (`zcard`, a defined script's `evalsha`): through the client's sendCommand, which every command
 * goes through, scripts' and pipelines' included. Not through ioredis' `ioredis:command` tracing
 * channel: once that has a subscriber, ioredis builds a context for every command (its arguments
 * turned into strings, checked against a list of patterns) and wraps its promise twice, several
 * times what timing it costs (bench/notes/allocations.md).
 */
export function timeRedisCommands(client: Redis | Cluster): void {
  if (timedClients.has(client)) return;
  timedClients.add(client);
  const send = client.sendCommand as (command: Command, stream?: unknown, node?: unknown) => Promise<unknown>;
  client.sendCommand = function sendTimed(this: Redis | Cluster, command: TimedCommand, stream?: unknown, node?: unknown) {
    if (command[STARTED_AT] === undefined) {
      const startedAt = (command[STARTED_AT] = performance.now());
      const seconds = () => (performance.now() - startedAt) / 1000;
      command.promise.then(
        () => commandTimer(command.name, 'ok').observe(seconds()),
        () => commandTimer(command.name, 'error').observe(seconds()),
      );
    }
    return send.call(this, command, stream, node);
  } as typeof client.sendCommand;
}

/** Each command's series, found once by the name ioredis gives. Command names are the few ioredis knows. */
const commandTimers = { ok: new Map<string, HistogramSeries>(), error: new Map<string, HistogramSeries>() };

function commandTimer(command: string, outcome: 'ok' | 'error'): HistogramSeries {
  let timer = commandTimers[outcome].get(command);
  // Lower case: ioredis names a command as it was called (`zcard()`, a defined script's `evalsha`).
  if (!timer) commandTimers[outcome].set(command, (timer = redisCommands.seriesOf({ command: command.toLowerCase(), outcome })));
  return timer;
}
