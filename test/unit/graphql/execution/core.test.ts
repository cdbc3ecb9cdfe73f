// The execution core on a schema of its own (no Redis): the one document cache (its bound, one
// parse and validation per text, Apollo's hashes), and what every transport gets from the core:
// error codes and their format in production, metrics and the log of internal errors.
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { ExecutionResult, GraphQLError, OperationDefinitionNode } from 'graphql';
import { ANONYMOUS_READER } from '../../../../src/domain/access';
import { unavailable, WriteOutcome } from '../../../../src/errors';
import type { Services } from '../../../../src/graphql/context';
import { createExecutionCore } from '../../../../src/graphql/execution/core';
import { LiveResults } from '../../../../src/graphql/execution/live';
import { DocumentCache, type PreparedOperation, rulesFor } from '../../../../src/graphql/execution/documents';
import { noteWriteOutcome } from '../../../../src/graphql/writeOutcomes';
import { MAX_KEPT_QUERY_LENGTH } from '../../../../src/domain/limits';

/** `call`'s result, called with a tenth of the stack left (measured by recursing until it runs out). */
function withLittleStackLeft<T>(call: () => T): T {
  const deepest = (depth: number): number => {
    try {
      return deepest(depth + 1);
    } catch {
      return depth;
    }
  };
  const limit = deepest(0);
  const descend = (depth: number): T => (depth === 0 ? call() : descend(depth - 1));
  return descend(Math.floor(limit * 0.9));
}

const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    type Query { hello(name: String!): String score: Int broken: Int }
    type Mutation { lost: Int unknown: Int }
    type Subscription { ticks(by: Int!): Int }
  `,
  resolvers: {
    Query: {
      hello: (_root: unknown, { name }: { name: string }) => `hello ${name}`,
      score: () => 7,
      broken: () => {
        throw new Error('kaput: a bug deep inside');
      },
    },
    Subscription: {
      ticks: {
        subscribe: async function* ticks() {
          yield 1;
          yield 2;
        },
        resolve: (tick: number, { by }: { by: number }) => tick * by,
      },
    },
    Mutation: {
      // As the mutation guard (src/graphql/mutationGuard.ts) records them.
      lost: () => {
        const err = unavailable('Redis did not answer', WriteOutcome.UNKNOWN);
        noteWriteOutcome(err);
        throw err;
      },
      unknown: () => {
        const err = new Error('half-way');
        noteWriteOutcome(err);
        throw err;
      },
    },
  },
});

function core(production: boolean) {
  const logged: { requestId?: string; message: string }[] = [];
  const observed: OperationDefinitionNode[] = [];
  const counted: string[] = [];
  const created = createExecutionCore({
    schema, services: {} as Services, production,
    logger: { error: ({ requestId }, message) => logged.push({ requestId, message }) },
    observeOperation: (operation) => observed.push(operation),
    countError: (code) => counted.push(code),
    countUserError: () => undefined,
  });
  return { core: created, logged, observed, counted };
}

const prepared = (result: PreparedOperation | readonly GraphQLError[]): PreparedOperation => {
  if (!('operation' in result)) throw new Error(`refused: ${result.map((e) => e.message).join()}`);
  return result;
};

describe('the document cache', () => {
  const cache = (max: number) => new DocumentCache(schema, rulesFor(true), max);

  it('parses and validates a text once, and answers it from memory after', () => {
    const documents = cache(10);
    const first = documents.prepare('{ score }');
    expect(documents.prepare('{ score }')).toBe(first);
    expect(documents.cached('{ score }')).toBe(first);
    expect(first.operation(undefined)).toBe(documents.prepare('{ score }').operation(null));
    expect(documents.cached('{ hello(name: "x") }')).toBeUndefined();
  });

  it('keeps at most its bound of texts, forgetting the least recently used', () => {
    const documents = cache(3);
    const texts = ['{ score }', '{ a: score }', '{ b: score }', '{ c: score }'];
    documents.prepare(texts[0]);
    documents.prepare(texts[1]);
    documents.prepare(texts[2]);
    documents.cached(texts[0]); // used again: the second is now the oldest
    documents.prepare(texts[3]);
    expect(documents.size).toBe(3);
    expect(texts.map((text) => documents.cached(text) !== undefined)).toEqual([true, false, true, true]);
  });

  it('never keeps a long text', () => {
    const documents = cache(10);
    const long = `{ score } # ${'x'.repeat(MAX_KEPT_QUERY_LENGTH)}`;
    const once = documents.prepare(long);
    expect(once.kept).toBe(false);
    expect(documents.prepare(long)).not.toBe(once);
    expect(documents.size).toBe(0);
  });

  it('keeps invalid texts with their errors and Apollo\'s codes', () => {
    const documents = cache(10);
    const unparsable = documents.prepare('{ score');
    expect(documents.prepare('{ score')).toBe(unparsable);
    expect(unparsable.errors?.map((e) => e.extensions.code)).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(documents.prepare('{ nope }').errors?.map((e) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('refuses a text whose nesting uses up the stack while it is parsed, as a parse error', () => {
    const documents = cache(10);
    // Nested lists within the token limit, which graphql-js parses by recursion.
    const nested = `{ hello(name: ${'['.repeat(1900)}"a"${']'.repeat(1900)}) }`;
    // Parsed with most of the stack already used, so that the parser runs out of it however warm its code is.
    const prepared = withLittleStackLeft(() => documents.prepare(nested));
    expect(prepared.errors?.map((e) => [e.message, e.extensions.code])).toEqual([
      ['Syntax Error: the document nests too deeply to parse', 'GRAPHQL_PARSE_FAILED'],
    ]);
  });

  it('files a text under Apollo\'s hash of it, for as long as it keeps the text', () => {
    const documents = cache(1);
    const filed = documents.prepareWithHash('{ score }', 'hash-1');
    expect(documents.byApolloHash('hash-1')).toBe(filed);
    documents.prepare('{ a: score }');
    expect(documents.byApolloHash('hash-1')).toBeUndefined();
  });
});

describe('executing', () => {
  it('names the operation it cannot find with OPERATION_RESOLUTION_FAILURE', () => {
    const { core: execution } = core(false);
    const refused = execution.prepare('query A { score } query B { score }', undefined);
    expect('operation' in refused).toBe(false);
    expect((refused as readonly GraphQLError[])[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(prepared(execution.prepare('query A { score } query B { score }', 'B')).operation.name?.value).toBe('B');
  });

  it('compiles an operation once, and times every execution', async () => {
    const { core: execution, observed } = core(false);
    const operation = prepared(execution.prepare('query ($n: String!) { hello(name: $n) }', undefined));
    const context = execution.context(ANONYMOUS_READER);
    expect(await execution.execute(operation, context, { n: 'a' })).toEqual({ data: { hello: 'hello a' } });
    const compiled = operation.compiled;
    expect(await execution.execute(operation, context, { n: 'b' })).toEqual({ data: { hello: 'hello b' } });
    expect(operation.compiled).toBe(compiled);
    expect(observed).toEqual([operation.operation, operation.operation]);
  });

  it("executes a subscription's events with its operation's compiled function, answering as graphql-js does", async () => {
    const { core: execution } = core(false);
    const operation = prepared(execution.prepare('subscription ($by: Int!) { ticks(by: $by) }', undefined));
    const results = async (given?: PreparedOperation) => {
      const args = { schema, document: operation.document, variableValues: { by: 3 }, contextValue: execution.context(ANONYMOUS_READER) };
      const live = await execution.subscribe(args, given);
      if (!(live instanceof LiveResults)) throw new Error(`not subscribed: ${JSON.stringify(live)}`);
      return new Promise<ExecutionResult[]>((resolve, reject) => {
        const taken: ExecutionResult[] = [];
        live.pipe({ take: (result) => taken.push(result) > 0, end: () => resolve(taken), error: reject });
      });
    };
    const byGraphQLJs = await results();
    expect(byGraphQLJs).toEqual([{ data: { ticks: 3 } }, { data: { ticks: 6 } }]);
    expect(operation.compiled).toBeUndefined();
    expect(await results(operation)).toEqual(byGraphQLJs);
    expect(operation.compiled).toEqual(expect.objectContaining({ query: expect.any(Function) }));
  });

  it('reports variables that do not fit as BAD_USER_INPUT, naming the variable', async () => {
    const { core: execution } = core(false);
    const operation = prepared(execution.prepare('query ($n: String!) { hello(name: $n) }', undefined));
    const result = execution.formatResult(await execution.execute(operation, execution.context(ANONYMOUS_READER), {}));
    expect(result.errors).toEqual([expect.objectContaining({
      message: expect.stringMatching(/^Variable "\$n" of required type "String!" was not provided/),
      extensions: { code: 'BAD_USER_INPUT' },
    })]);
  });

  it('masks an internal error, and logs it once with the request id its context carries', async () => {
    const { core: execution, logged, counted } = core(true);
    const operation = prepared(execution.prepare('{ broken score }', undefined));
    const result = execution.formatResult(await execution.execute(operation, execution.context(ANONYMOUS_READER, 'req-1'), undefined));
    expect(result).toEqual({
      data: { broken: null, score: 7 },
      errors: [{ message: 'Internal server error', locations: [{ line: 1, column: 3 }], path: ['broken'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(logged).toEqual([{ requestId: 'req-1', message: expect.stringMatching(/^Internal error at broken: Error: kaput: a bug deep inside\n\s+at /) }]);
    expect(counted).toEqual(['INTERNAL_SERVER_ERROR']);
  });

  it('says what became of a write that failed (extensions.outcome), masked or not', async () => {
    const { core: execution, logged } = core(true);
    const operation = prepared(execution.prepare('mutation { lost unknown }', undefined));
    const result = execution.formatResult(await execution.execute(operation, execution.context(ANONYMOUS_READER), undefined));
    expect(result.errors?.map((e) => [e.path, e.extensions])).toEqual([
      [['lost'], { code: 'UNAVAILABLE', details: {}, outcome: 'UNKNOWN' }],
      [['unknown'], { code: 'INTERNAL_SERVER_ERROR', outcome: 'UNKNOWN' }],
    ]);
    expect(logged).toHaveLength(1);
  });
});

describe('in production', () => {
  const errorsOf = (production: boolean, query: string) => {
    const refused = core(production).core;
    const result = refused.prepare(query, undefined);
    return 'operation' in result ? [] : refused.formatErrors(result);
  };

  it('suggests no names of the schema', () => {
    const [development] = errorsOf(false, '{ scor }');
    expect(development.message).toMatch(/Did you mean "score"\?$/);
    const [production] = errorsOf(true, '{ scor }');
    expect(production).toEqual({ message: 'Cannot query field "scor" on type "Query".', locations: [{ line: 1, column: 3 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });

  it('refuses introspection, which development allows', () => {
    expect(errorsOf(false, '{ __schema { types { name } } }')).toEqual([]);
    expect(errorsOf(true, '{ __schema { types { name } } }').map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(errorsOf(true, '{ __typename }')).toEqual([]);
  });
});
