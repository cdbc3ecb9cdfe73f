// graphql-jit execution and its compiled serialiser against graphql-js and JSON.stringify, on a
// schema of the shapes Standings answers with (numbers at the edges of exactness, odd strings,
// lists, nulls, enums, aliases, a custom scalar).
import { execute, GraphQLScalarType, Kind, parse, type OperationDefinitionNode } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { createCompiledExecution } from '../../../../src/graphql/execution/compiled';

const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    scalar Moment
    enum Order { ASCENDING DESCENDING }
    type Row { id: ID! score: Float! rank: Int! note: String order: Order at: Moment }
    type Query { rows(n: Int!): [Row!]! row: Row fail: Int }
  `,
  resolvers: {
    Moment: new GraphQLScalarType({ name: 'Moment', serialize: (v) => new Date(v as number).toISOString() }),
    Query: {
      rows: (_root: unknown, { n }: { n: number }) =>
        Array.from({ length: n }, (_, i) => ({
          id: `p-${i}`,
          score: [9007199254740991, -9007199254740991, 0.1 + 0.2, -0, 1e21, 123.456][i % 6],
          rank: i + 1,
          note: i % 2 ? null : `quote " backslash \\ newline \n tab \t nul \u0000 emoji 🏆 lone \ud800`,
          order: i % 2 ? 'ASCENDING' : 'DESCENDING',
          at: 1_700_000_000_000 + i,
        })),
      row: () => null,
      fail: () => { throw new Error('boom'); },
    },
  },
});

const operationOf = (document: ReturnType<typeof parse>) =>
  document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;

async function both(query: string, variables?: Record<string, unknown>) {
  const compiled = createCompiledExecution(schema);
  const document = parse(query);
  const prepared = { document, operation: operationOf(document), kept: true };
  const jit = await compiled.execute(prepared, {}, variables);
  const reference = await execute({ schema, document, variableValues: variables });
  return { compiled, prepared, jit, reference };
}

it.each([
  ['numbers, strings and enums', '{ rows(n: 12) { id score rank note order } }'],
  ['aliases, __typename and a null object', '{ a: rows(n: 2) { x: rank, __typename } row { id } }'],
  ['a custom scalar (no compiled serialiser)', '{ rows(n: 3) { id at } }'],
])('answers %s as graphql-js does, and writes it as JSON.stringify does', async (_case, query) => {
  const { compiled, prepared, jit, reference } = await both(query);
  expect(jit).toEqual(reference);
  expect(compiled.stringify(jit, prepared)).toBe(`${JSON.stringify(reference)}\n`);
  expect(compiled.stringify(jit)).toBe(`${JSON.stringify(reference)}\n`);
});

it('never writes a result with errors with the compiled serialiser, which knows only data', async () => {
  const { compiled, prepared, jit } = await both('{ rows(n: 2) { id score } }');
  expect(jit.errors).toBeUndefined();
  // The same data with errors beside it: the serialiser compiled for the operation would drop them.
  const withErrors = { data: jit.data, errors: [{ message: 'Internal server error' }] };
  expect(compiled.stringify(withErrors, prepared)).toBe(`${JSON.stringify(withErrors)}\n`);
});

it('reports bad variables in graphql-js words, naming the variable', async () => {
  const { jit } = await both('query ($n: Int!) { rows(n: $n) { id } }', { n: 'many' });
  expect(jit.data).toBeUndefined();
  expect(jit.errors?.[0].message).toMatch(/^Variable "\$n" got invalid value "many"/);
  expect(jit.errors?.[0].nodes?.[0].kind).toBe(Kind.VARIABLE_DEFINITION);
});
