import type { GatewayInterface } from '@apollo/server-gateway-interface';
import {
  type DocumentNode, type ExecutionResult, type FormattedExecutionResult, getVariableValues, GraphQLError, type GraphQLSchema,
  type OperationDefinitionNode, printSchema, type SourceLocation,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { operationNotFound, subscriptionOverHttp } from './errors';

type Compiled = CompiledQuery | ExecutionResult;

/**
 * Where `presetOutcome` leaves an outcome: in the context itself, as a property, because Apollo
 * executes with a shallow copy of the context it was given (copies keep symbol-keyed properties).
 */
const PRESET = Symbol('preset outcome');
type WithPreset = { [PRESET]?: Promise<ExecutionResult> };
export type CompiledExecution = ReturnType<typeof createCompiledExecution>;

/**
 * Executes operations with graphql-jit: each operation is compiled into a JavaScript function the
 * first time it runs, and that function runs it from then on, without graphql-js walking the
 * query and coercing arguments field by field on every request. Compilations are kept per parsed
 * operation, whose document Apollo keeps one of per distinct query text (its document store, an
 * LRU), so they live as long as the document does there or among the known operations
 * (src/server/knownOperations.ts), whichever keeps it longer.
 *
 * `stringify` writes a result as JSON, with the serialiser graphql-jit compiles for the shape of
 * its operation's answer (fast-json-stringify) when there is one and the result is data alone.
 */
export function createCompiledExecution(schema: GraphQLSchema) {
  const compilations = new WeakMap<OperationDefinitionNode, Compiled>();
  /** By the data object a compiled operation answered, the serialiser compiled with it. */
  const serialisers = new WeakMap<object, (value: unknown) => string>();

  const execute = (
    document: DocumentNode,
    operation: OperationDefinitionNode,
    contextValue: unknown,
    variables: Record<string, unknown> | undefined,
  ): Promise<ExecutionResult> | ExecutionResult => {
    let compiled = compilations.get(operation);
    if (!compiled) compilations.set(operation, (compiled = compile(schema, document, operation.name?.value)));
    if (!isCompiledQuery(compiled)) return withGraphQLErrors(schema, compiled, operation, variables);
    const { stringify } = compiled;
    const finish = (result: ExecutionResult) => {
      // `stringify` uses the compiled serialiser only for data without errors.
      if (result.data && !result.errors && stringify !== JSON.stringify) serialisers.set(result.data, stringify);
      return withGraphQLErrors(schema, result, operation, variables);
    };
    const result = compiled.query(undefined, contextValue, variables);
    return result instanceof Promise ? result.then(finish) : finish(result);
  };

  const stringify = (result: FormattedExecutionResult): string => {
    const serialise = result.errors === undefined && result.extensions === undefined && result.data ? serialisers.get(result.data) : undefined;
    return `${serialise ? serialise({ data: result.data }) : JSON.stringify(result)}\n`;
  };

  /**
   * Has the next execution with `contextValue` answer with `outcome` instead of running again: a
   * request executed outside Apollo (src/server/knownOperations.ts) whose result holds errors is
   * handed to Apollo, which formats them, picks the HTTP status and runs its plugins as it always
   * does, without running the operation (a mutation) twice.
   */
  const presetOutcome = (contextValue: object, outcome: Promise<ExecutionResult>): void => {
    (contextValue as WithPreset)[PRESET] = outcome;
  };
  /** The outcome `presetOutcome` left in this context (Apollo executes each context's copy once). */
  const presetOutcomeOf = (contextValue: object): Promise<ExecutionResult> | undefined => (contextValue as WithPreset)[PRESET];

  return { schema, execute, stringify, presetOutcome, presetOutcomeOf };
}

/**
 * With a compiled serialiser where graphql-jit can make one: it cannot for answers holding custom
 * scalars (DateTime), which are then written with JSON.stringify.
 */
function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Compiled {
  const withSerialiser = compileQuery(schema, document, operationName, { customJSONSerializer: true });
  return isCompiledQuery(withSerialiser) ? withSerialiser : compileQuery(schema, document, operationName);
}

/**
 * graphql-jit makes its errors look like graphql-js' but not quite (no `nodes`, `extensions` may
 * be missing, variables named by the field they failed in), and Apollo and formatError read
 * those. A result without data failed on its variables: graphql-js coerces them again to say why
 * in its own words, with the variable's definition, which is how Apollo tells bad input
 * (BAD_USER_INPUT, HTTP 400) from a failure. Other errors are remade as graphql-js errors that keep
 * their cause, path and place.
 */
function withGraphQLErrors(
  schema: GraphQLSchema, result: ExecutionResult, operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined,
): ExecutionResult {
  if (!result.errors) return result;
  if (result.data === undefined) {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
    if (coerced.errors) return { errors: coerced.errors };
  }
  const errors = result.errors.map((error) => {
    const remade = new GraphQLError(error.message, {
      path: error.path,
      originalError: error.originalError ?? undefined,
      extensions: error.extensions ?? undefined,
    });
    (remade as { locations?: readonly SourceLocation[] }).locations = error.locations;
    return remade;
  });
  return { ...result, errors };
}

/**
 * Apollo Server takes a custom executor only from a gateway: this one serves the compiled
 * execution's schema as it is and executes with it (or answers with an outcome already made, see `presetOutcome`). Apollo still parses,
 * validates (our rules included), runs its plugins and formats errors; only execution changes hands.
 *
 * Apollo calls the executor even when the document holds no operation the request names, and
 * expects the error graphql-js' execute would return then (it answers it as
 * OPERATION_RESOLUTION_FAILURE, HTTP 400). And HTTP cannot carry a subscription's stream: executed
 * here, its fields would run once, as a query's, with resolvers that expect an event.
 */
export function compiledExecutionGateway({ schema, execute, presetOutcomeOf }: CompiledExecution): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async load() {
      return {
        executor: async ({ document, operation, context, request }) => {
          if (!operation) return { errors: [operationNotFound(request.operationName)] };
          if (operation.operation === 'subscription') return { errors: [subscriptionOverHttp()] };
          return presetOutcomeOf(context) ?? execute(document, operation, context, request.variables);
        },
      };
    },
    async stop() {},
  };
}
