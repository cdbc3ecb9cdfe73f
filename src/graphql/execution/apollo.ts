import { type ApolloServerOptionsWithGateway, type ApolloServerPlugin, type BaseContext, type DocumentStore, HeaderMap } from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { type DocumentNode, type ExecutionResult, type GraphQLError, Kind, printSchema } from 'graphql';
import { operationNotFound, subscriptionOverHttp } from '../errorFormat';
import { parseOptions } from '../validationRules';
import type { ExecutionCore } from './core';
import type { PreparedOperation } from './documents';

/**
 * Where `presetOutcome` leaves an outcome: in the context itself, as a property, because Apollo
 * executes with a shallow copy of the context it was given (copies keep symbol-keyed properties).
 */
const PRESET = Symbol('preset outcome');
type WithPreset = { [PRESET]?: Promise<ExecutionResult> };

/**
 * Has Apollo answer the next execution with `contextValue` with `outcome` instead of executing:
 * a request the HTTP fast lane executed (src/server/fastLane.ts) whose result holds errors
 * is handed to Apollo, which picks the HTTP status and answers it as it always does, without
 * running the operation (a mutation) twice.
 */
export function presetOutcome(contextValue: object, outcome: Promise<ExecutionResult>): void {
  (contextValue as WithPreset)[PRESET] = outcome;
}

/**
 * The options through which Apollo Server runs on the execution core, all documented extension
 * points of Apollo Server 5, so that Apollo stays the front door for HTTP (CSRF prevention,
 * content negotiation, landing page, HTTP status, batching, persisted queries) without a document
 * cache, an executor or an error format of its own:
 *
 * - `plugins` (`didResolveSource`, which sees the query text and Apollo's sha256 of it before
 *   Apollo looks in its document store): the core parses and validates the text once, into its
 *   cache, filed under that hash;
 * - `documentStore`: the core's cache, read by that hash. A text the cache does not keep (too long)
 *   is missing there: Apollo parses and validates it itself, with the same parse options and rules;
 *   what it would store, the core does not keep. For a text the core refused, the store answers
 *   REFUSED, which Apollo takes as validated, and the plugin's `responseForOperation` answers with
 *   the core's errors, as Apollo would answer its own parse or validation errors (HTTP 400), so
 *   Apollo never parses an invalid text the cache holds;
 * - `gateway`: Apollo takes a custom executor only from a gateway; this one serves the core's
 *   schema and executes with the core (or answers with an outcome already made, see presetOutcome);
 * - `formatError` and `stringifyResult`: the core's.
 */
type CoreOptions<C extends BaseContext> = Pick<
  ApolloServerOptionsWithGateway<C>,
  'documentStore' | 'gateway' | 'parseOptions' | 'validationRules' | 'introspection' | 'formatError' | 'stringifyResult'
> & { plugins: ApolloServerPlugin<C>[] };

export function apolloOptions<C extends BaseContext>(core: ExecutionCore): CoreOptions<C> {
  const { documents } = core;
  /** By the data of a result the gateway's executor made, the operation it executed (see stringifyResult). */
  const answeredBy = new WeakMap<object, PreparedOperation>();
  const documentStore: DocumentStore = {
    // Apollo prefixes the hash with its schema's hash: the core has one schema.
    get: async (key) => {
      const prepared = documents.byApolloHash(key.slice(key.lastIndexOf(':') + 1));
      return prepared && (prepared.document ?? REFUSED);
    },
    set: async () => undefined,
    delete: async () => undefined,
  };
  const filer: ApolloServerPlugin<C> = {
    async requestDidStart() {
      /** The core's errors for this request's text, when it refused it. */
      let refused: readonly GraphQLError[] | undefined;
      return {
        async didResolveSource({ source, queryHash }) {
          if (documents.keeps(source)) refused = documents.prepareWithHash(source, queryHash).errors;
        },
        async didResolveOperation({ document, metrics }) {
          // Apollo would register the text as a persisted query after this hook; a refused text
          // never reaches that point when Apollo validates it itself.
          if (document === REFUSED) metrics.persistedQueryRegister = false;
        },
        async responseForOperation({ document }) {
          if (document !== REFUSED) return null;
          return {
            http: { status: 400, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: { errors: core.formatErrors(refused!) } },
          };
        },
      };
    },
  };
  return {
    documentStore,
    gateway: coreGateway(core, answeredBy),
    parseOptions,
    validationRules: [...documents.rules],
    // The core's rules refuse introspection when it is off (see rulesFor), for every transport.
    introspection: true,
    formatError: core.formatError,
    // Apollo hands its stringifyResult the result alone: the gateway tells which operation made it.
    stringifyResult: (result) => core.stringify(result, result.data ? answeredBy.get(result.data) : undefined),
    plugins: [filer],
  };
}

/**
 * What the document store answers for a text the core refused (parse or validation errors): no
 * operation, so nothing Apollo does before `responseForOperation` acts on it.
 */
const REFUSED: DocumentNode = Object.freeze({ kind: Kind.DOCUMENT, definitions: Object.freeze([]) });

/**
 * Apollo calls the executor even when the document holds no operation the request names, and
 * expects the error graphql-js' execute would return then (it answers it as
 * OPERATION_RESOLUTION_FAILURE, HTTP 400). And HTTP cannot carry a subscription's stream: executed
 * here, its fields would run once, as a query's, with resolvers that expect an event.
 */
function coreGateway(core: ExecutionCore, answeredBy: WeakMap<object, PreparedOperation>): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: core.schema, coreSupergraphSdl: printSchema(core.schema) });
      return () => undefined;
    },
    async load() {
      return {
        executor: async ({ document, operation, source, context, request }) => {
          if (!operation) return { errors: [operationNotFound(request.operationName)] };
          if (operation.operation === 'subscription') return { errors: [subscriptionOverHttp()] };
          const preset = (context as WithPreset)[PRESET];
          if (preset) return preset;
          // The cache's own operation when Apollo's document came from it; a long text's otherwise.
          const cached = source === undefined ? undefined : core.documents.cached(source)?.operation(request.operationName);
          const prepared: PreparedOperation = cached?.operation === operation ? cached : { document, operation, kept: false };
          const result = await core.execute(prepared, context, request.variables);
          if (result.data) answeredBy.set(result.data, prepared);
          return result;
        },
      };
    },
    async stop() {},
  };
}
