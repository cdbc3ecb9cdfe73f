import {
  type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError, type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Principal } from '../../domain/access';
import { ErrorCode, StandingsError } from '../../errors';
import { type ChargeViews, type Context, createContext, createEventContext, type Services } from '../context';
import { createFormatError, describeInternalError, isInternalError } from '../errorFormat';
import { createSharedSubscribe, LiveResults } from './live';
import type { UserErrorObserver } from '../userErrors';
import { nodeIdsCost } from '../validationRules';
import { coerceVariables, createCompiledExecution } from './compiled';
import { DocumentCache, operationNotFoundError, type PreparedOperation, rulesFor } from './documents';

export interface ExecutionCoreOptions {
  schema: GraphQLSchema;
  services: Services;
  /** Production: schema details (suggested names, introspection) are kept from clients. */
  production: boolean;
  /** Whether clients may read the schema by introspection; default: outside production. */
  introspection?: boolean;
  /** Where internal errors go, with the id of the request they happened in (pino's signature). */
  logger: { error(fields: { requestId?: string }, message: string): void };
  /** Times a query or mutation that began executing at `started` (process.hrtime.bigint()). */
  observeOperation(operation: OperationDefinitionNode, started: bigint): void;
  /** Counts an error sent to a client, by its code. */
  countError(code: string): void;
  /** Counts a userError in a mutation's payload (an expected failure, no GraphQL error), by mutation field and code. */
  countUserError: UserErrorObserver;
  /** Tests: what live subscribers share is frozen, so that changing it after it was shared throws. */
  freezeShared?: boolean;
}

/** Where a context carries its request's id (a symbol: Apollo executes with a shallow copy of the context, which keeps it). */
const REQUEST_ID = Symbol('request id');
type WithRequestId = { [REQUEST_ID]?: string };

export type ExecutionCore = ReturnType<typeof createExecutionCore>;

/**
 * What every transport passes through to run a GraphQL operation: Apollo Server over HTTP (as its
 * document store and executor, see apollo.ts), the HTTP fast lane (src/server/fastLane.ts)
 * and the WebSocket (src/server/websocket.ts). Each concern is one function here:
 *
 * - `documents`: the one cache of parsed and validated documents, holding compiled functions;
 * - `prepare`: a query text and operation name to the operation to run, or the errors refusing it;
 * - `coerceVariables`: judging a request's variables (BAD_USER_INPUT);
 * - `context`: the context of one operation, for a principal admitted by the transport;
 * - `execute`: a query or mutation, compiled on first use; every execution is timed and its
 *   internal errors logged here, so a concern that must see every operation (tracing, an audit
 *   log, a limit) goes here, and `subscribe` for subscriptions;
 * - `formatError`: the shape of every error a client receives (codes, masking, `extensions.outcome`),
 *   counted by code; `formatResult` applies it to a result.
 */
export function createExecutionCore(options: ExecutionCoreOptions) {
  const { schema, services, logger, countUserError } = options;
  const documents = new DocumentCache(schema, rulesFor(options.introspection ?? !options.production));
  const compiled = createCompiledExecution(schema);
  const format = createFormatError({ hideSchemaDetails: options.production });

  /**
   * Logs an error that formatError masks as internal: any thrown value that is neither a GraphQL
   * error with a code nor a StandingsError (a client's mistake, a refusal, or Redis unavailable,
   * which the client is told about by its code). `requestId`: the HTTP request's, or the
   * WebSocket connection's.
   */
  const logInternalError = (error: unknown, requestId?: string): void => {
    if (error instanceof GraphQLError) {
      if (!isInternalError(error)) return;
      logger.error({ requestId }, describeInternalError(error.path, error.originalError ?? error));
    } else if (!(error instanceof StandingsError)) {
      logger.error({ requestId }, describeInternalError(undefined, error));
    }
  };

  const formatError = (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const result = format(formatted, error);
    options.countError(String(result.extensions?.code ?? ErrorCode.INTERNAL));
    return result;
  };

  /** An error as Apollo formats one: an error without a code is an internal one, and `http` is for Apollo alone. */
  const formatGraphQLError = (error: GraphQLError): GraphQLFormattedError => {
    const { http: _http, ...extensions } = error.extensions;
    return formatError({ ...error.toJSON(), extensions: { ...extensions, code: error.extensions.code ?? ErrorCode.INTERNAL } }, error);
  };

  const subscribeShared = createSharedSubscribe(() => createEventContext(services), {
    freezeShared: options.freezeShared,
    // Once per event and operation, however many subscribers share the result.
    onResult: (result) => result.errors?.forEach((error) => logInternalError(error)),
  });

  return {
    schema,
    documents,

    prepare(query: string, operationName: string | null | undefined): PreparedOperation | readonly GraphQLError[] {
      const prepared = documents.prepare(query);
      if (prepared.errors) return prepared.errors;
      return prepared.operation(operationName) ?? [operationNotFoundError(operationName)];
    },

    coerceVariables: (operation: OperationDefinitionNode, variables: Record<string, unknown> | null | undefined) =>
      coerceVariables(schema, operation, variables),

    /** `requestId`: what internal errors of its operations are logged with; `chargeViews`: see createContext. */
    context(principal: Principal, requestId?: string, chargeViews?: ChargeViews): Context {
      const context = createContext(services, principal, countUserError, chargeViews);
      if (requestId !== undefined) (context as WithRequestId)[REQUEST_ID] = requestId;
      return context;
    },

    async execute(prepared: PreparedOperation, contextValue: object, variables: Record<string, unknown> | null | undefined): Promise<ExecutionResult> {
      const started = process.hrtime.bigint();
      const requestId = (contextValue as WithRequestId)[REQUEST_ID];
      // Node ids in variables cost what they name, which validation could not see.
      const overCost = nodeIdsCost(schema, prepared.document, prepared.operation, variables);
      if (overCost) return { errors: [overCost] };
      let result: ExecutionResult;
      try {
        result = await compiled.execute(prepared, contextValue, variables ?? undefined);
      } catch (err) {
        logInternalError(err, requestId);
        throw err;
      }
      result.errors?.forEach((error) => logInternalError(error, requestId));
      options.observeOperation(prepared.operation, started);
      return result;
    },

    /**
     * A subscription's stream of results (see execution/live.ts), or the errors that refused it.
     * With its prepared operation, each event's result comes from the operation's compiled
     * function, as a query's does; without it, graphql-js executes it.
     */
    async subscribe(args: ExecutionArgs, prepared?: PreparedOperation): Promise<ExecutionResult | LiveResults> {
      const variables = args.variableValues ?? undefined;
      const subscribed = await subscribeShared(args, prepared && ((payload, contextValue) => compiled.execute(prepared, contextValue, variables, payload)));
      const requestId = (args.contextValue as WithRequestId | undefined)?.[REQUEST_ID];
      if (!(subscribed instanceof LiveResults)) subscribed.errors?.forEach((error) => logInternalError(error, requestId));
      return subscribed;
    },

    logInternalError,
    formatError,
    formatErrors: (errors: readonly GraphQLError[]) => errors.map(formatGraphQLError),
    formatResult: (result: ExecutionResult): FormattedExecutionResult =>
      result.errors ? { ...result, errors: result.errors.map(formatGraphQLError) } : result,
    stringify: compiled.stringify,
  };
}
