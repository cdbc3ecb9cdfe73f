import { getIntrospectionQuery, getOperationAST, parse, specifiedRules, validate } from 'graphql';
import { MAX_OPERATION_VIEWS, MAX_QUERY_ALIASES, MAX_QUERY_COST, MAX_QUERY_DEPTH, MAX_QUERY_TOKENS } from '../../../src/domain/limits';
import { buildSchema } from '../../../src/graphql/schema';
import { DocumentCache } from '../../../src/graphql/execution/documents';
import { encodeNodeId } from '../../../src/graphql/nodeIds';
import { nodeIdsCost, parseOptions, validationRules } from '../../../src/graphql/validationRules';

const schema = buildSchema();

/** The limit errors a document gets (details of each), or [] when it passes. */
function limitsOf(query: string) {
  const errors = validate(schema, parse(query, parseOptions), [...specifiedRules, ...validationRules]);
  return errors.map((error) => error.extensions.details as { limit: string; maximum: number; found: number });
}


describe('query depth', () => {
  it('accepts the deepest useful query and refuses one level more', () => {
    expect(limitsOf(`{ leaderboard(id: "b") { entries { nodes { leaderboard { entries { nodes { player { id } } } } } } } }`)).toEqual([]);
    const eleven = '{ leaderboard(id: "b") { entries { nodes { leaderboard { entries { nodes { leaderboard { entries { nodes { player { id } } } } } } } } } } }';
    expect(limitsOf(eleven)).toEqual([{ limit: 'depth', maximum: MAX_QUERY_DEPTH, found: 11 }]);
  });

  it('follows fragments, however they are spread', () => {
    const query = `
      query { leaderboard(id: "b") { ...Deep } }
      fragment Deep on Leaderboard { entries { nodes { leaderboard { ... on Leaderboard { entries { nodes { ...Deeper } } } } } } }
      fragment Deeper on Entry { leaderboard { entries { nodes { player { id } } } } }`;
    expect(limitsOf(query)).toEqual([{ limit: 'depth', maximum: MAX_QUERY_DEPTH, found: 11 }]);
  });

  it('survives a fragment cycle (graphql-js reports it) without looping', () => {
    const errors = validate(schema, parse('{ leaderboard(id: "b") { ...A } } fragment A on Leaderboard { entries { nodes { leaderboard { ...A } } } }'),
      [...specifiedRules, ...validationRules]);
    expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/Cannot spread fragment "A" within itself/)]);
  });

  it('leaves introspection alone: the explorer needs it outside production', () => {
    expect(limitsOf(getIntrospectionQuery())).toEqual([]);
  });
});

describe('aliases', () => {
  const aliased = (count: number) => `{ leaderboard(id: "b") { ${Array.from({ length: count }, (_, i) => `a${i}: entry(playerId: "p${i}") { rank }`).join(' ')} } }`;

  it(`allows ${MAX_QUERY_ALIASES} and refuses more, counting through fragments`, () => {
    expect(limitsOf(aliased(MAX_QUERY_ALIASES))).toEqual([]);
    expect(limitsOf(aliased(MAX_QUERY_ALIASES + 1))).toEqual([{ limit: 'aliases', maximum: MAX_QUERY_ALIASES, found: MAX_QUERY_ALIASES + 1 }]);
    const viaFragment = `{ x: leaderboard(id: "b") { ...F } y: leaderboard(id: "c") { ...F } } fragment F on Leaderboard { ${
      Array.from({ length: 50 }, (_, i) => `a${i}: size`).join(' ')} }`;
    expect(limitsOf(viaFragment)).toEqual([{ limit: 'aliases', maximum: MAX_QUERY_ALIASES, found: 102 }]);
  });

  it('counts aliases of __typename and inside introspection like any others', () => {
    const typenames = (count: number) => Array.from({ length: count }, (_, i) => `t${i}: __typename`).join(' ');
    expect(limitsOf(`{ ${typenames(MAX_QUERY_ALIASES)} }`)).toEqual([]);
    expect(limitsOf(`{ ${typenames(MAX_QUERY_ALIASES + 1)} }`)).toEqual([{ limit: 'aliases', maximum: MAX_QUERY_ALIASES, found: MAX_QUERY_ALIASES + 1 }]);
    expect(limitsOf(`{ leaderboard(id: "b") { ${typenames(60)} } __type(name: "Query") { ${typenames(41).replaceAll('__typename', 'name')} } }`))
      .toEqual([{ limit: 'aliases', maximum: MAX_QUERY_ALIASES, found: 101 }]);
  });
});

describe('cost', () => {
  it('multiplies a page by its size: a full page passes, a page of pages does not', () => {
    const page = '{ leaderboard(id: "b") { entries(first: 1000) { nodes { playerId score rank player { displayName } } } } }';
    expect(limitsOf(page)).toEqual([]);
    expect(limitsOf('{ leaderboard(id: "b") { entries(first: 200) { nodes { leaderboard { entries(first: 200) { nodes { playerId } } } } } } }')).toEqual([
      { limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) },
    ]);
  });

  it('says how many fields in digits, however deep the query', () => {
    const messages = (levels: number) => {
      const query = `{ ${'leaderboard(id: "b") { entries(first: 1000) { nodes { '.repeat(levels)}playerId${' } } }'.repeat(levels)} }`;
      return validate(schema, parse(query), [...specifiedRules, ...validationRules])
        .filter((error) => (error.extensions.details as { limit?: string } | undefined)?.limit === 'cost').map((error) => error.message);
    };
    expect(messages(3)).toEqual([expect.stringMatching(/^The operation could resolve \d+ fields .*; at most \d+ are allowed$/)]);
    // Beyond 2^53 (here with the depth limit broken too), no exponent: a bound a person can read.
    expect(messages(40)).toEqual([`The operation could resolve more than ${Number.MAX_SAFE_INTEGER} fields (a list counts at its largest size); at most ${MAX_QUERY_COST} are allowed`]);
  });

  it('counts a page read with last as one read with first, and one with neither as the default size', () => {
    expect(limitsOf('{ leaderboard(id: "b") { entries(last: 200) { nodes { leaderboard { entries(last: 200) { nodes { playerId } } } } } } }')).toEqual([
      { limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) },
    ]);
    // Ten entries, each with a page of ten, each of those a page of 1000: over the limit only if the defaults count as ten.
    const nested = '{ leaderboard(id: "b") { entries { nodes { leaderboard { entries { nodes { leaderboard { entries(first: 1000) { nodes { playerId } } } } } } } } } }';
    expect(limitsOf(nested)).toEqual([{ limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) }]);
  });

  it('counts radius as 2 * radius + 1 entries and lists by their length', () => {
    const around = (radius: number) => `{ leaderboard(id: "b") { around(playerId: "p", radius: ${radius}) { entries { entry: leaderboard { entries(first: 10) { nodes { id: playerId } } } } } } }`;
    // 1 + 1 + (2r + 1) * (1 + (1 + 1 + 10 * (1 + 1) + 1 + ...)) grows with the radius.
    expect(limitsOf(around(5))).toEqual([]);
    expect(limitsOf(around(500))).toEqual([{ limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) }]);
  });

  it('counts a variable as the largest value it may take, since its value is not known yet', () => {
    const query = (first: string) => `query ($n: Int, $ids: [ID!]!) {
      leaderboard(id: "b") { entries(first: ${first}) { nodes { leaderboard { entries(first: 20) { nodes { playerId } } } } } }
      entries(leaderboardId: "b", playerIds: $ids) { rank }
    }`;
    expect(limitsOf(query('10'))).toEqual([]);
    expect(limitsOf(query('$n'))).toEqual([{ limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) }]);
  });

  it("counts a board's periods as every period it may keep (one kind's with a kind named), each with its reads", () => {
    const periods = (args: string, reads: string) => `query ($kind: PeriodKind) { leaderboard(id: "b") { periods${args} { key ${reads} } } }`;
    const over = [{ limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) }];
    const page = 'entries { nodes { playerId } }';
    expect(limitsOf(periods('', 'totalCount'))).toEqual([]);
    expect(limitsOf(periods('', page))).toEqual(over);
    expect(limitsOf(periods('(kind: $kind)', page))).toEqual(over);
    expect(limitsOf(periods('(kind: WEEKLY)', page))).toEqual([]);
    expect(limitsOf(periods('(kind: WEEKLY)', 'entries(first: 100) { nodes { playerId } }'))).toEqual(over);
  });

  it('counts a combined view as one object, however many sources its list names', () => {
    const view = (sources: string, first: number) =>
      `query ($sources: [CombinedSourceInput!]!) { combined(sources: ${sources}) { entries(first: ${first}) { nodes { playerId rank } } } }`;
    expect(limitsOf(view('$sources', 1000))).toEqual([]);
    expect(limitsOf(view('[{ leaderboardId: "a" }, { leaderboardId: "b" }]', 1000))).toEqual([]);
    // Its reads still count as a board's do.
    expect(limitsOf(`{ combined(sources: [{ leaderboardId: "a" }]) { entries(first: 1000) { nodes { ranking { entries(first: 20) { nodes { playerId } } } } } } }`))
      .toEqual([{ limit: 'cost', maximum: MAX_QUERY_COST, found: expect.any(Number) }]);
  });

  describe('Node ids count as the arguments they hold', () => {
    const window = (radius: number, playerId = 'p') => encodeNodeId({ type: 'RankWindow', boardId: 'b', playerId, radius });
    const WINDOWS = 'nodes(ids: IDS) { ... on RankWindow { totalCount entries { playerId score rank } } }';
    const around = (radius: number) => `around(playerId: "p", radius: ${radius}) { totalCount entries { playerId score rank } }`;
    /** The cost error of a query as validation and then nodeIdsCost (with `variables`) see it, or undefined. */
    function costOf(query: string, variables?: Record<string, unknown>) {
      const document = parse(query, parseOptions);
      const refused = validate(schema, document, [...specifiedRules, ...validationRules]);
      if (refused.length > 0) return refused.map((error) => error.extensions.details)[0];
      return nodeIdsCost(schema, document, getOperationAST(document)!, variables)?.extensions.details;
    }

    it('written in the query: five windows of radius 500 cost what five around(radius: 500) do', () => {
      const ids = [1, 2, 3, 4, 5].map((n) => JSON.stringify(window(500, `p${n}`)));
      const written = costOf(`{ ${WINDOWS.replace('IDS', `[${ids.join(', ')}]`)} }`) as { found: number };
      const direct = costOf(`{ leaderboard(id: "b") { ${[1, 2, 3, 4, 5].map((n) => `a${n}: ${around(500)}`).join(' ')} } }`) as { found: number };
      expect(written).toMatchObject({ limit: 'cost', maximum: MAX_QUERY_COST });
      expect(direct).toMatchObject({ limit: 'cost', maximum: MAX_QUERY_COST });
      // The same entries counted: the direct query has the board's field and five `around` fields more, the ids' one `nodes`.
      expect(written.found).toBe(direct.found - 1 - 5 + 1);
      expect(costOf(`{ ${WINDOWS.replace('IDS', `[${ids.slice(0, 2).join(', ')}]`)} }`)).toBeUndefined();
    });

    it('passed in variables: measured with the request\'s ids before anything runs', () => {
      const query = `query ($ids: [ID!]!) { ${WINDOWS.replace('IDS', '$ids')} }`;
      const many = Array.from({ length: 300 }, (_, n) => window(500, `p${n}`));
      expect(costOf(query, { ids: many })).toEqual({ limit: 'cost', maximum: MAX_QUERY_COST, found: 1 + 300 * 1001 * 5 });
      expect(costOf(query, { ids: many.slice(0, 2) })).toBeUndefined();
      // Small objects stay cheap however many (up to the batch size) are asked for.
      expect(costOf(query, { ids: Array.from({ length: 1000 }, (_, n) => encodeNodeId({ type: 'Entry', boardId: 'b', playerId: `p${n}` })) })).toBeUndefined();
      const single = 'query ($id: ID!) { node(id: $id) { ... on TopUpdate { entries { playerId score rank sharedRank percentile } } } }';
      expect(costOf(single, { id: encodeNodeId({ type: 'TopUpdate', boardId: 'b', first: 1000 }) })).toBeUndefined();
      expect(costOf(`{ a: node(id: "${encodeNodeId({ type: 'TopUpdate', boardId: 'b', first: 1000 })}") { ... on TopUpdate { entries { playerId score rank sharedRank percentile } } }
        b: node(id: "${encodeNodeId({ type: 'TopUpdate', boardId: 'c', first: 1000 })}") { ... on TopUpdate { entries { playerId score rank sharedRank percentile } } }
        c: node(id: "${encodeNodeId({ type: 'TopUpdate', boardId: 'd', first: 1000 })}") { ... on TopUpdate { entries { playerId score rank sharedRank percentile } } }
        d: node(id: "${encodeNodeId({ type: 'TopUpdate', boardId: 'e', first: 1000 })}") { ... on TopUpdate { entries { playerId score rank sharedRank percentile } } } }`))
        .toMatchObject({ limit: 'cost' });
    });

    it('through a fragment, and not for garbled ids (those answer null)', () => {
      const query = `query ($ids: [ID!]!) { ...F } fragment F on Query { ${WINDOWS.replace('IDS', '$ids')} }`;
      expect(costOf(query, { ids: Array.from({ length: 300 }, (_, n) => window(500, `p${n}`)) })).toMatchObject({ limit: 'cost' });
      expect(costOf(query, { ids: Array.from({ length: 300 }, (_, n) => `garbled-${n}`) })).toBeUndefined();
    });
  });

  it(`allows ${MAX_OPERATION_VIEWS} combined views an operation, as fields or as Node ids of views, and refuses more`, () => {
    const view = (n: number) => `v${n}: combined(sources: [{ leaderboardId: "a", weight: ${n} }]) { totalCount }`;
    const views = (count: number) => `{ ${Array.from({ length: count }, (_, n) => view(n + 1)).join(' ')} }`;
    expect(limitsOf(views(MAX_OPERATION_VIEWS))).toEqual([]);
    expect(limitsOf(views(MAX_OPERATION_VIEWS + 1))).toEqual([{ limit: 'views', maximum: MAX_OPERATION_VIEWS, found: MAX_OPERATION_VIEWS + 1 }]);
    const viewId = (weight: number) => encodeNodeId({ type: 'CombinedView', view: { aggregate: 'SUM', sources: [{ boardId: 'a', kind: 'ALL_TIME', key: 'all', weight }] } });
    const onView = (weight: number) => encodeNodeId({ type: 'Entry', boardId: 'a', playerId: 'view', view: { aggregate: 'MAX', sources: [{ boardId: 'a', kind: 'ALL_TIME', key: 'all', weight }] } });
    const document = parse('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', parseOptions);
    const measured = (ids: string[]) => nodeIdsCost(schema, document, getOperationAST(document)!, { ids })?.extensions.details;
    expect(measured([viewId(1), viewId(2), onView(3), onView(4)])).toBeUndefined();
    expect(measured([viewId(1), viewId(2), onView(3), onView(4), viewId(5)])).toEqual({ limit: 'views', maximum: MAX_OPERATION_VIEWS, found: 5 });
    // An entry of a board (its player happens to be called "view") opens no view.
    expect(measured(Array.from({ length: 10 }, (_, n) => encodeNodeId({ type: 'Entry', boardId: `b${n}`, playerId: 'view' })))).toBeUndefined();
  });

  it('leaves an out-of-range size to the precise BAD_USER_INPUT check', () => {
    expect(limitsOf('{ leaderboard(id: "b") { entries(first: 1000000) { nodes { playerId } } } }')).toEqual([]);
  });
});

it('refuses a subscription whose root field is under @skip or @include, directly or in a fragment', () => {
  const messages = (query: string) => new DocumentCache(schema, validationRules).prepare(query).errors?.map((error) => error.message) ?? [];
  const refused = [expect.stringMatching(/root field may not be under @(skip|include)/)];
  expect(messages('subscription { topChanged(leaderboardId: "b") @skip(if: true) { version } }')).toEqual(refused);
  // graphql-js' own rule throws on this one before ours runs: refused all the same, not an internal error.
  expect(messages('subscription ($on: Boolean!) { topChanged(leaderboardId: "b") @include(if: $on) { version } }')).toEqual([expect.stringMatching(/\$on/)]);
  expect(messages('subscription { ...F } fragment F on Subscription { topChanged(leaderboardId: "b") @skip(if: false) { version } }')).toEqual(refused);
  expect(messages('subscription { ... @skip(if: true) { topChanged(leaderboardId: "b") { version } } }')).toEqual(refused);
  // Below the root, as anywhere in a query, they are fine.
  expect(messages('subscription { topChanged(leaderboardId: "b") { version entries @skip(if: true) { playerId } } }')).toEqual([]);
  expect(messages('{ leaderboard(id: "b") @skip(if: true) { id } }')).toEqual([]);
});

it(`stops parsing past ${MAX_QUERY_TOKENS} tokens, before deep nesting can exhaust the stack`, () => {
  const deep = `{ ${'leaderboard(id: "b") { entries { nodes { '.repeat(400)} playerId ${'} } } '.repeat(400)} }`;
  expect(() => parse(deep, parseOptions)).toThrow(/Document contains more that? 2000 tokens/);
});
