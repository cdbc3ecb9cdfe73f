import {
  execute, type ExecutionResult, type FormattedExecutionResult, getVariableValues, GraphQLError, type GraphQLSchema,
  type OperationDefinitionNode, type SourceLocation,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { ErrorCode } from '../../errors';
import type { PreparedOperation } from './documents';
import { withCode } from './documents';

/**
 * Executes prepared operations with graphql-jit: each operation of a kept document is compiled
 * into a JavaScript function the first time it runs, and that function runs it from then on,
 * without graphql-js walking the query and coercing arguments field by field on every request.
 * The function lives with its document in the document cache (documents.ts). A document the cache
 * does not keep (a long text) runs once: graphql-js executes it, as compiling costs more than it saves.
 *
 * `stringify` writes a result as JSON, with the serialiser graphql-jit compiled for the operation
 * that answered it (fast-json-stringify) when there is one and the result is data alone.
 */
export function createCompiledExecution(schema: GraphQLSchema) {
  /** `rootValue`: for a subscription, the event whose result it is. */
  const execute = (
    prepared: PreparedOperation, contextValue: unknown, variables: Record<string, unknown> | undefined, rootValue?: unknown,
  ): Promise<ExecutionResult> | ExecutionResult => {
    const { operation } = prepared;
    if (!prepared.kept) return executeOnce(schema, prepared, contextValue, variables, rootValue);
    const compiled = (prepared.compiled ??= compile(schema, prepared));
    if (!isCompiledQuery(compiled)) return withGraphQLErrors(schema, compiled, operation, variables);
    const finish = (result: ExecutionResult) => withGraphQLErrors(schema, result, operation, variables);
    const result = compiled.query(rootValue, contextValue, variables);
    return result instanceof Promise ? result.then(finish) : finish(result);
  };

  /** `answeredBy`: the operation whose execution made `result`, when the caller knows it. */
  const stringify = (result: FormattedExecutionResult, answeredBy?: PreparedOperation): string => {
    const compiled = answeredBy?.compiled;
    // The compiled serialiser knows only data: a result with errors or extensions is written whole.
    const serialise = compiled && isCompiledQuery(compiled) && compiled.stringify !== JSON.stringify
      && result.errors === undefined && result.extensions === undefined && result.data ? compiled.stringify : undefined;
    return `${serialise ? serialise({ data: result.data }) : JSON.stringify(result)}\n`;
  };

  return { execute, stringify };
}

/**
 * With a compiled serialiser where graphql-jit can make one: it cannot for answers holding custom
 * scalars (DateTime), which are then written with JSON.stringify. What graphql-jit cannot compile
 * at all it answers with errors, kept in place of the function.
 */
function compile(schema: GraphQLSchema, { document, operation }: PreparedOperation): CompiledQuery | ExecutionResult {
  const name = operation.name?.value;
  const withSerialiser = compileQuery(schema, document, name, { customJSONSerializer: true });
  return isCompiledQuery(withSerialiser) ? withSerialiser : compileQuery(schema, document, name);
}

async function executeOnce(
  schema: GraphQLSchema, { document, operation }: PreparedOperation, contextValue: unknown, variables: Record<string, unknown> | undefined,
  rootValue: unknown,
): Promise<ExecutionResult> {
  const coercionErrors = coerceVariables(schema, operation, variables).errors;
  if (coercionErrors) return { errors: coercionErrors };
  return execute({ schema, document, operationName: operation.name?.value, contextValue, variableValues: variables, rootValue });
}

/**
 * The request's variables against the operation's definitions: their coerced values (defaults
 * applied), or graphql-js' errors (naming the variable, pointing at its definition) as
 * BAD_USER_INPUT, as Apollo reports them. The one place variables are judged: graphql-jit
 * coerces them in its compiled function and says only that they failed, so its failures are
 * explained here.
 */
export function coerceVariables(
  schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown> | null | undefined,
): { errors: GraphQLError[]; coerced?: never } | { coerced: Record<string, unknown>; errors?: never } {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  return coerced.errors ? { errors: coerced.errors.map((error) => withCode(error, ErrorCode.BAD_USER_INPUT)) } : coerced;
}

/**
 * graphql-jit makes its errors look like graphql-js' but not quite (no `nodes`, `extensions` may
 * be missing, variables named by the field they failed in), and formatError reads those. A result
 * without data failed on its variables (see coerceVariables). Other errors are remade as
 * graphql-js errors that keep their cause, path and place.
 */
function withGraphQLErrors(
  schema: GraphQLSchema, result: ExecutionResult, operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined,
): ExecutionResult {
  if (!result.errors) return result;
  if (result.data === undefined) {
    const coercionErrors = coerceVariables(schema, operation, variables).errors;
    if (coercionErrors) return { errors: coercionErrors };
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
