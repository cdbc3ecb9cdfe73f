// Apollo Server on the execution core (no Redis, no HTTP: executeOperation runs Apollo's whole
// request pipeline): Apollo parses and validates nothing the core's cache holds (valid or refused),
// executes with the core's compiled functions, and answers refused texts with the core's errors.
import { createHash } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { ANONYMOUS_READER } from '../../../../src/domain/access';
import { MAX_KEPT_QUERY_LENGTH } from '../../../../src/domain/limits';
import type { Services } from '../../../../src/graphql/context';
import { apolloOptions } from '../../../../src/graphql/execution/apollo';
import { createExecutionCore } from '../../../../src/graphql/execution/core';
import { parseOptions } from '../../../../src/graphql/validationRules';

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
    logger: { error: () => undefined }, observeOperation: () => undefined, countError: () => undefined, countUserError: () => undefined,
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

it('parses a text the core does not keep itself', async () => {
  const long = `{ score(add: 3) } # ${'x'.repeat(MAX_KEPT_QUERY_LENGTH)}`;
  expect(await run(long)).toEqual({ data: { score: 43 } });
  expect(parsedByApollo).toEqual([long]);
});

describe('a text the core refuses', () => {
  const texts = { syntax: '{ score(add: ', validation: '{ score nothing }', persisted: '{ score(add: "x") }' };

  it.each(Object.entries(texts))('(%s) is answered from the core\'s errors, as Apollo on its own would, without Apollo parsing it', async (_kind, text) => {
    // Apollo by itself, with the core's parse options, rules and error format.
    const alone = new ApolloServer({ schema, parseOptions, validationRules: [...core.documents.rules], formatError: core.formatError });
    await alone.start();
    try {
      const expected = await alone.executeOperation({ query: text }, { contextValue: core.context(ANONYMOUS_READER) });
      for (let i = 0; i < 2; i++) {
        const response = await apollo.executeOperation({ query: text }, { contextValue: core.context(ANONYMOUS_READER) });
        expect(response.http.status).toBe(400);
        expect(response.http.status).toBe(expected.http.status);
        expect(response.body).toEqual(expected.body);
      }
      expect(parsedByApollo).toEqual([]);
    } finally {
      await alone.stop();
    }
  });

  it('is not registered as a persisted query', async () => {
    const text = texts.persisted;
    const sha256Hash = createHash('sha256').update(text).digest('hex');
    const persistedQuery = { version: 1, sha256Hash };
    const contextValue = core.context(ANONYMOUS_READER);
    const refused = await apollo.executeOperation({ query: text, extensions: { persistedQuery } }, { contextValue });
    expect(refused.http.status).toBe(400);
    const byHash = await apollo.executeOperation({ extensions: { persistedQuery } }, { contextValue });
    expect(byHash.body.kind === 'single' && byHash.body.singleResult.errors?.map((error) => error.extensions?.code)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });
});
