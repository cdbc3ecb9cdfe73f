// Apollo Server on the execution core (no Redis, no HTTP: executeOperation runs Apollo's whole
// request pipeline): Apollo parses and validates nothing the core's cache holds, and executes with
// the core's compiled functions.
import { ApolloServer } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { ANONYMOUS_READER } from '../../../../src/domain/access';
import { MAX_KEPT_QUERY_LENGTH } from '../../../../src/domain/limits';
import type { Services } from '../../../../src/graphql/context';
import { apolloOptions } from '../../../../src/graphql/execution/apollo';
import { createExecutionCore } from '../../../../src/graphql/execution/core';

const schema = makeExecutableSchema({
  typeDefs: 'type Query { score(add: Int!): Int }',
  resolvers: { Query: { score: (_root: unknown, { add }: { add: number }) => 40 + add } },
});

let core: ReturnType<typeof createExecutionCore>;
let apollo: ApolloServer;
/** Texts Apollo parsed itself (its parsingDidStart hook runs only then). */
let parsedByApollo: string[];

beforeEach(async () => {
  core = createExecutionCore({
    schema, services: {} as Services, production: false,
    logger: { error: () => undefined }, observeOperation: () => undefined, countError: () => undefined,
  });
  parsedByApollo = [];
  const { plugins, ...onCore } = apolloOptions(core);
  apollo = new ApolloServer({
    ...onCore,
    plugins: [...plugins, { requestDidStart: async ({ request }) => ({ parsingDidStart: async () => void parsedByApollo.push(request.query!) }) }],
  });
  await apollo.start();
});
afterEach(() => apollo.stop());

const run = async (query: string, variables?: Record<string, unknown>) => {
  const { body } = await apollo.executeOperation({ query, variables }, { contextValue: core.context(ANONYMOUS_READER) });
  if (body.kind !== 'single') throw new Error('expected one result');
  return body.singleResult;
};

it('takes every document from the core\'s cache, which parses each text once', async () => {
  const query = 'query ($n: Int!) { score(add: $n) }';
  expect(await run(query, { n: 1 })).toEqual({ data: { score: 41 } });
  expect(await run(query, { n: 2 })).toEqual({ data: { score: 42 } });
  expect(parsedByApollo).toEqual([]);
  const prepared = core.documents.cached(query)!;
  expect(core.documents.size).toBe(1);
  // Apollo executed the cache's own operation: its compiled function is kept there.
  expect(prepared.operation(undefined)?.compiled).toBeDefined();
});

it('parses a text the core does not keep, and one it refuses, itself, and answers alike', async () => {
  const long = `{ score(add: 3) } # ${'x'.repeat(MAX_KEPT_QUERY_LENGTH)}`;
  expect(await run(long)).toEqual({ data: { score: 43 } });
  const invalid = '{ score }';
  const refused = await run(invalid);
  expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  expect(refused.errors?.[0].message).toBe(core.documents.prepare(invalid).errors?.[0].message);
  expect(parsedByApollo).toEqual([long, invalid]);
});
