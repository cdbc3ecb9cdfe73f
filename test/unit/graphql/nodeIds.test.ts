import { decodeNodeId, encodeNodeId, entriesNamedBy, type NodeKey } from '../../../src/graphql/nodeIds';

const raw = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe("a Period's Node id", () => {
  it('names its board, kind and key, and decodes back to them', () => {
    const keys: NodeKey[] = [
      { type: 'Period', boardId: 'blitz', period: { kind: 'WEEKLY', key: '2026-W49' } },
      { type: 'Period', boardId: 'blitz', period: { kind: 'ALL_TIME', key: 'all' } },
      { type: 'Period', boardId: 'period', period: { kind: 'SEASON', key: 's1' } },
    ];
    for (const key of keys) expect(decodeNodeId(encodeNodeId(key))).toEqual(key);
    expect(new Set(keys.map(encodeNodeId)).size).toBe(keys.length);
  });

  it("differs from the ids of that period's entries and windows, and from another board's period", () => {
    const period = { kind: 'DAILY', key: '2026-12-01' };
    const ids = [
      encodeNodeId({ type: 'Period', boardId: 'blitz', period }),
      encodeNodeId({ type: 'Period', boardId: 'blitz2', period }),
      encodeNodeId({ type: 'Entry', boardId: 'blitz', period, playerId: 'p' }),
      encodeNodeId({ type: 'RankWindow', boardId: 'blitz', period, playerId: 'p', radius: 2 }),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is not read from a text without a period, with more parts, or with a bad board id', () => {
    for (const text of ['Period blitz', 'Period blitz extra period DAILY 2026-12-01', 'Period bad/id period DAILY 2026-12-01', 'Period period DAILY 2026-12-01']) {
      expect(decodeNodeId(raw(text))).toBeNull();
    }
  });
});

describe("a CombinedView's Node id, and those of its entries and windows", () => {
  const view = {
    aggregate: 'SUM',
    sources: [
      { boardId: 'eu', kind: 'DAILY', key: '2026-12-01', weight: 2 },
      { boardId: 'us', kind: 'ALL_TIME', key: 'all', weight: 0.5 },
      { boardId: 'view', kind: 'SEASON', key: 's.1', weight: 1 },
    ],
  };

  it('names its aggregate and sources, and decodes back to them', () => {
    const keys: NodeKey[] = [
      { type: 'CombinedView', view },
      { type: 'CombinedView', view: { ...view, aggregate: 'MAX' } },
      { type: 'CombinedView', view: { ...view, sources: view.sources.slice(1) } },
      { type: 'Entry', boardId: 'eu', view, playerId: 'view' },
      { type: 'RankWindow', boardId: 'eu', view, playerId: 'p', radius: 2 },
      { type: 'RankWindow', boardId: 'eu', view, score: -1.5, radius: 0 },
    ];
    for (const key of keys) expect(decodeNodeId(encodeNodeId(key))).toEqual(key);
    expect(new Set(keys.map(encodeNodeId)).size).toBe(keys.length);
  });

  it('is not read without sources, with a malformed source, with a period too, or on a TopUpdate', () => {
    for (const text of [
      'CombinedView', 'CombinedView view SUM', 'CombinedView view SUM eu/DAILY/2026-12-01', 'CombinedView view SUM e u/DAILY/x/1',
      'CombinedView view SUM eu/daily/x/1', 'CombinedView extra view SUM eu/DAILY/x/1', 'Entry eu p period DAILY x view SUM eu/DAILY/x/1',
      'TopUpdate eu 10 view SUM eu/DAILY/x/1', 'Period eu view SUM eu/DAILY/x/1',
    ]) {
      expect(decodeNodeId(raw(text))).toBeNull();
    }
  });
});

it('tells the entries an id names from its text alone, for the query cost', () => {
  expect(entriesNamedBy(encodeNodeId({ type: 'RankWindow', boardId: 'b', playerId: 'p', radius: 500 }))).toBe(1001);
  expect(entriesNamedBy(encodeNodeId({ type: 'RankWindow', boardId: 'b', score: 12.5, radius: 3, period: { kind: 'DAILY', key: '2026-12-01' } }))).toBe(7);
  expect(entriesNamedBy(encodeNodeId({ type: 'TopUpdate', boardId: 'b', first: 250 }))).toBe(250);
  expect(entriesNamedBy(encodeNodeId({ type: 'Entry', boardId: 'b', playerId: 'p' }))).toBe(1);
  // Garbled or out of range: what it claims, bounded as the argument is, or 1.
  expect(entriesNamedBy(Buffer.from('RankWindow b player p 99999').toString('base64url'))).toBe(1001);
  expect(entriesNamedBy(Buffer.from('TopUpdate b lots').toString('base64url'))).toBe(1);
  expect(entriesNamedBy('not an id at all')).toBe(1);
});
