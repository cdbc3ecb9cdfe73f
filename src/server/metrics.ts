import * as diagnostics from 'node:diagnostics_channel';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics, served at /metrics. One registry for the process (metrics describe the
 * process, however many servers a test starts in it), with Node's own process metrics (memory,
 * event loop delay, GC) next to ours.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

let source = () => registry.metrics();

/** What /metrics serves: this process' registry, or what readMetricsFrom said. */
export const metricsText = (): Promise<string> => source();

/** With workers (src/server/workers.ts), /metrics describes the machine: every worker added up. */
export function readMetricsFrom(machine: () => Promise<string>): void {
  source = machine;
}

const operations = new Histogram({
  name: 'standings_graphql_operation_duration_seconds',
  help: 'GraphQL queries and mutations (over HTTP and WebSocket) by operation type and root field, from the start of their '
    + 'execution to its result',
  labelNames: ['type', 'field'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

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

/** Counts a userError: the execution core's contexts tell it of each one (see src/graphql/userErrors.ts). */
export function countUserError(field: string, code: string): void {
  userErrors.inc({ field, code });
}

const lanes = new Counter({
  name: 'standings_graphql_http_requests_total',
  help: 'GraphQL requests over HTTP by how they were served: "known" executed at once (a query text the '
    + 'execution core holds, see src/server/knownOperations.ts), "apollo" through Apollo Server',
  labelNames: ['lane'],
  registers: [registry],
});
const knownLane = lanes.labels({ lane: 'known' });
const apolloLane = lanes.labels({ lane: 'apollo' });

/** Counts a GraphQL request over HTTP by the lane that serves it. */
export function countLane(known: boolean): void {
  (known ? knownLane : apolloLane).inc();
}

const redisCommands = new Histogram({
  name: 'standings_redis_command_duration_seconds',
  help: 'Redis commands, from writing the command to its reply, by command and outcome',
  labelNames: ['command', 'outcome'],
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
  registers: [registry],
});

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
const timers = new WeakMap<OperationDefinitionNode, ReturnType<typeof operations.labels>>();

function operationTimer(operation: OperationDefinitionNode): ReturnType<typeof operations.labels> {
  let timer = timers.get(operation);
  if (!timer) timers.set(operation, (timer = operations.labels(operationLabels(operation))));
  return timer;
}

function operationLabels(operation: OperationDefinitionNode): { type: string; field: string } {
  const fields = new Set(
    operation.selectionSet.selections.map((selection) => (selection.kind === Kind.FIELD ? selection.name.value : '...')),
  );
  return { type: operation.operation, field: fields.size === 1 ? [...fields][0] : 'multiple' };
}

// ioredis (6+) reports every command on the `ioredis:command` tracing channel: timing it there
// covers every client in the process without wrapping any of them.
interface CommandTrace {
  command: string;
  error?: unknown;
  startedAt?: bigint;
}

diagnostics.subscribe('tracing:ioredis:command:start', (message) => {
  (message as CommandTrace).startedAt = process.hrtime.bigint();
});
diagnostics.subscribe('tracing:ioredis:command:asyncEnd', (message) => {
  const trace = message as CommandTrace;
  if (trace.startedAt === undefined) return;
  const seconds = Number(process.hrtime.bigint() - trace.startedAt) / 1e9;
  commandTimer(trace.command, trace.error === undefined ? 'ok' : 'error').observe(seconds);
});

/**
 * Each command's series, found once: observing with a labels object hashes the labels on every
 * call, and a request makes several commands. Command names are the few ioredis knows.
 */
const commandTimers = { ok: new Map<string, Timer>(), error: new Map<string, Timer>() };
type Timer = ReturnType<typeof redisCommands.labels>;

function commandTimer(command: string, outcome: 'ok' | 'error'): Timer {
  let timer = commandTimers[outcome].get(command);
  // Lower case: ioredis names a command as it was called (`zcard()`, a defined script's `evalsha`).
  if (!timer) commandTimers[outcome].set(command, (timer = redisCommands.labels({ command: command.toLowerCase(), outcome })));
  return timer;
}
