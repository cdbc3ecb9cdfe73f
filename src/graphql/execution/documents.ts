import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  type DocumentNode, type ExecutionResult, getOperationAST, GraphQLError, type GraphQLSchema, type OperationDefinitionNode, parse,
  specifiedRules, validate, type ValidationRule,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { MAX_KEPT_QUERIES, MAX_KEPT_QUERY_LENGTH } from '../../domain/limits';
import { ErrorCode } from '../../errors';
import { parseOptions, validationRules } from '../validationRules';
import { operationNotFound } from '../errorFormat';

/** One operation of a valid document, as every transport executes it. */
export interface PreparedOperation {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  /** Whether its document is kept in the cache: only then is compiling it worth it. */
  readonly kept: boolean;
  /**
   * The function graphql-jit compiled for it (see compiled.ts), or the errors it compiled to,
   * made on its first execution and kept with its document.
   */
  compiled?: CompiledQuery | ExecutionResult;
}

/** A query text, parsed and validated: its document, or the errors that refuse it. */
export class PreparedDocument {
  /** Apollo's hash of the text, by which Apollo's document store asks for it (see apollo.ts). */
  hash: string | undefined;
  /** By operation name (undefined: none sent), the operations requests named; only those the document holds. */
  private readonly operations = new Map<string | undefined, PreparedOperation>();

  constructor(
    readonly document: DocumentNode | undefined,
    readonly errors: readonly GraphQLError[] | undefined,
    /** Whether the cache keeps it (see DocumentCache). */
    readonly kept: boolean,
  ) {}

  /** The operation `name` names, or undefined when the document holds none it names (or is invalid). */
  operation(name: string | null | undefined): PreparedOperation | undefined {
    if (!this.document) return undefined;
    const key = name ?? undefined;
    let prepared = this.operations.get(key);
    if (!prepared) {
      const operation = getOperationAST(this.document, key);
      if (!operation) return undefined;
      this.operations.set(key, (prepared = { document: this.document, operation, kept: this.kept }));
    }
    return prepared;
  }
}

/**
 * The one cache of parsed and validated documents, for every transport: an LRU of at most
 * MAX_KEPT_QUERIES query texts, each parsed and validated once (with the same rules and parse
 * limits whatever the transport) and holding its operations' compiled functions. Texts longer
 * than MAX_KEPT_QUERY_LENGTH are prepared for one request and never kept. Apollo Server reads it
 * as its document store (see apollo.ts), the HTTP fast lane and the WebSocket through `prepare`
 * and `cached`.
 */
export class DocumentCache {
  /** By query text, least recently used first. */
  private readonly byText = new Map<string, PreparedDocument>();
  /** The same entries by Apollo's hash of their text, for those Apollo has asked for. */
  private readonly byHash = new Map<string, PreparedDocument>();
  constructor(
    private readonly schema: GraphQLSchema,
    /** Validation rules besides graphql-js' own (see rulesFor). */
    readonly rules: readonly ValidationRule[],
    private readonly maxEntries = MAX_KEPT_QUERIES,
  ) {}

  /** Whether a text is short enough to be kept. */
  keeps(text: string): boolean {
    return text.length <= MAX_KEPT_QUERY_LENGTH;
  }

  /** The text parsed and validated: from the cache, or now (and kept, unless it is too long). */
  prepare(text: string): PreparedDocument {
    const cached = this.cached(text);
    if (cached) return cached;
    const kept = this.keeps(text);
    const prepared = this.parseAndValidate(text, kept);
    if (kept) {
      if (this.byText.size >= this.maxEntries) this.evictOldest();
      this.byText.set(text, prepared);
    }
    return prepared;
  }

  /** The text as prepared before, if the cache still holds it; never parses. */
  cached(text: string): PreparedDocument | undefined {
    const prepared = this.byText.get(text);
    if (prepared) {
      // Most recently used goes last (Map keeps insertion order).
      this.byText.delete(text);
      this.byText.set(text, prepared);
    }
    return prepared;
  }

  /** Prepares the text and files it under Apollo's hash of it too (see apollo.ts). */
  prepareWithHash(text: string, hash: string): PreparedDocument {
    const prepared = this.prepare(text);
    if (prepared.kept && prepared.hash === undefined) {
      prepared.hash = hash;
      this.byHash.set(hash, prepared);
    }
    return prepared;
  }

  /** The kept document filed under Apollo's hash, if any. */
  byApolloHash(hash: string): PreparedDocument | undefined {
    return this.byHash.get(hash);
  }

  get size(): number {
    return this.byText.size;
  }

  private evictOldest(): void {
    const [text, oldest] = this.byText.entries().next().value!;
    this.byText.delete(text);
    if (oldest.hash !== undefined) this.byHash.delete(oldest.hash);
  }

  private parseAndValidate(text: string, kept: boolean): PreparedDocument {
    let document: DocumentNode;
    try {
      document = parse(text, parseOptions);
    } catch (err) {
      const refusal = err instanceof GraphQLError ? err : tooDeep(err);
      if (!refusal) throw err;
      return new PreparedDocument(undefined, [withCode(refusal, ApolloServerErrorCode.GRAPHQL_PARSE_FAILED)], kept);
    }
    let errors: readonly GraphQLError[];
    try {
      errors = validate(this.schema, document, [...specifiedRules, ...this.rules]);
    } catch (err) {
      // graphql-js' subscription rule throws (rather than reports) a root field under @skip or
      // @include with a variable; conditionalSubscriptionRule reports the rest.
      if (!(err instanceof GraphQLError)) throw err;
      errors = [err];
    }
    if (errors.length === 0) return new PreparedDocument(document, undefined, kept);
    return new PreparedDocument(undefined, errors.map((error) => withCode(error, ErrorCode.GRAPHQL_VALIDATION_FAILED)), kept);
  }
}

/**
 * graphql-js parses nested values (lists in lists...) by recursion, and the token limit stops a
 * document only after as many tokens as it allows: a text of a couple of thousand `[` can use up
 * the stack first, the depth depending on how warm the parser's code is. Apollo answers any
 * exception of its parse as a syntax error; this does the same for the documents parsed here.
 */
function tooDeep(err: unknown): GraphQLError | undefined {
  if (!(err instanceof RangeError)) return undefined;
  return new GraphQLError('Syntax Error: the document nests too deeply to parse');
}

/**
 * Our validation rules (query limits), and without introspection one refusing it: Apollo's
 * `introspection: false` would add its own rule only to the documents Apollo parses itself, and
 * most documents reach it from this cache.
 */
export function rulesFor(introspection: boolean): readonly ValidationRule[] {
  return introspection ? validationRules : [...validationRules, noIntrospection];
}

/** Once per `__schema` or `__type` field, as Apollo's rule does (graphql-js' own also reports every field below). */
const noIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value !== '__schema' && node.name.value !== '__type') return;
    context.reportError(new GraphQLError(`Introspection is off on this server; the query asks for ${node.name.value}`, {
      nodes: node,
      extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED },
    }));
  },
});

/** Why a request names no operation of its document, with the code Apollo gives it. */
export function operationNotFoundError(operationName: string | null | undefined): GraphQLError {
  return withCode(operationNotFound(operationName), ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE);
}

/** The error with `code` unless it has one; its nodes stay, which formatError looks at. */
export function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}
