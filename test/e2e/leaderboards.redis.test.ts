import { Leaderboards } from '../../src/domain/leaderboards';
import { uniqueId } from '../support/redis';
import { CREATE_BOARD, createBoard, submitAll, TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

describe('createLeaderboard', () => {
  it('creates a board with its settings and reads it back', async () => {
    const id = uniqueId('create');
    const created = await server.data(CREATE_BOARD, {
      input: { id, title: 'Weekly blitz', sortOrder: 'ASCENDING', updatePolicy: 'LATEST', capacity: 5000 },
    });
    expect(created.createLeaderboard).toEqual({
      leaderboard: { id, title: 'Weekly blitz', sortOrder: 'ASCENDING', updatePolicy: 'LATEST', totalCount: 0 },
      userErrors: [],
    });

    const read = await server.data(`query ($id: ID!) {
      leaderboard(id: $id) { id title sortOrder updatePolicy totalCount createdAt }
    }`, { id });
    expect(read.leaderboard).toMatchObject({ id, title: 'Weekly blitz', sortOrder: 'ASCENDING', updatePolicy: 'LATEST', totalCount: 0 });
    const createdAt = Date.parse(read.leaderboard.createdAt);
    expect(Math.abs(createdAt - Date.now())).toBeLessThan(60_000);
  });

  it('returns the existing board when created again with the same settings', async () => {
    const id = uniqueId('again');
    await createBoard(server, id);
    await submitAll(server, id, [['p', 1]]);
    const again = await server.data(CREATE_BOARD, { input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST' } });
    expect(again.createLeaderboard.leaderboard).toMatchObject({ id, totalCount: 1 });
  });

  it('refuses to create a board that exists with different settings (CONFLICT), naming the setting', async () => {
    const id = uniqueId('conflict');
    await server.data(CREATE_BOARD, { input: { id, title: 'Blitz', sortOrder: 'DESCENDING', updatePolicy: 'BEST' } });
    const differing: [Record<string, unknown>, string][] = [
      [{ sortOrder: 'ASCENDING', updatePolicy: 'LATEST', title: 'Other' }, 'sortOrder'],
      [{ sortOrder: 'DESCENDING', updatePolicy: 'LATEST', title: 'Blitz' }, 'updatePolicy'],
      [{ sortOrder: 'DESCENDING', updatePolicy: 'BEST', title: 'Other' }, 'title'],
      [{ sortOrder: 'DESCENDING', updatePolicy: 'BEST' }, 'title'],
    ];
    for (const [settings, field] of differing) {
      const { body } = await server.post(CREATE_BOARD, { input: { id, ...settings } });
      expect(body).toEqual({
        data: {
          createLeaderboard: {
            leaderboard: null,
            userErrors: [{ code: 'CONFLICT', field: ['input', field], message: `leaderboard exists with a different ${field}` }],
          },
        },
      });
    }
  });
});

describe('leaderboard / leaderboards', () => {
  it('is null for a board that does not exist', async () => {
    const data = await server.data(`{ leaderboard(id: "${uniqueId('missing')}") { id } }`);
    expect(data.leaderboard).toBeNull();
  });

  it('lists boards in id order, page by page with opaque cursors', async () => {
    // A prefix that sorts after every other test's boards, so concurrent tests cannot interleave.
    const prefix = `zz-list-${uniqueId('p')}`;
    const ids = ['a', 'b', 'c', 'd', 'e'].map((suffix) => `${prefix}-${suffix}`);
    for (const id of ids) await createBoard(server, id);

    const LIST = `query ($first: Int, $after: String) {
      leaderboards(first: $first, after: $after) {
        edges { cursor node { id } }
        nodes { id sortOrder }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        totalCount
      }
    }`;
    const seen: string[] = [];
    let after: string | null = `${prefix}-`;
    for (;;) {
      const { leaderboards } = await server.data(LIST, { first: 2, after });
      expect(leaderboards.nodes.map((n: { id: string }) => n.id)).toEqual(
        leaderboards.edges.map((e: { node: { id: string } }) => e.node.id),
      );
      expect(leaderboards.pageInfo.endCursor).toBe(leaderboards.edges.at(-1)?.cursor ?? null);
      expect(leaderboards.pageInfo.hasPreviousPage).toBe(true);
      expect(leaderboards.totalCount).toBeGreaterThanOrEqual(ids.length);
      seen.push(...leaderboards.nodes.map((n: { id: string }) => n.id).filter((id: string) => id.startsWith(prefix)));
      if (!leaderboards.pageInfo.hasNextPage) break;
      after = leaderboards.pageInfo.endCursor;
    }
    expect(seen).toEqual(ids);
  });

  it('counts every board only when totalCount is asked for', async () => {
    const count = jest.spyOn(Leaderboards.prototype, 'countBoards');
    try {
      await server.data('{ leaderboards(first: 2) { nodes { id } pageInfo { hasNextPage } } }');
      expect(count).not.toHaveBeenCalled();
      const { leaderboards } = await server.data('{ leaderboards(first: 2) { nodes { id } totalCount } }');
      expect(count).toHaveBeenCalledTimes(1);
      expect(leaderboards.totalCount).toBeGreaterThanOrEqual(leaderboards.nodes.length);
    } finally {
      count.mockRestore();
    }
  });

  it('uses a default page size of 20', async () => {
    const { leaderboards } = await server.data('{ leaderboards { nodes { id } pageInfo { hasPreviousPage } } }');
    expect(leaderboards.nodes.length).toBeLessThanOrEqual(20);
    expect(leaderboards.pageInfo.hasPreviousPage).toBe(false);
  });
});

describe('deleteLeaderboard', () => {
  it('deletes a board with its entries, and says false when there was none', async () => {
    const id = uniqueId('delete');
    await createBoard(server, id);
    await submitAll(server, id, [['p1', 10], ['p2', 20]]);
    const DELETE = 'mutation ($id: ID!) { deleteLeaderboard(id: $id) { deleted userErrors { code } } }';
    expect((await server.data(DELETE, { id })).deleteLeaderboard).toEqual({ deleted: true, userErrors: [] });
    expect((await server.data(`{ leaderboard(id: "${id}") { id } }`)).leaderboard).toBeNull();
    expect((await server.data(DELETE, { id })).deleteLeaderboard).toEqual({ deleted: false, userErrors: [] });

    // Re-created, it starts empty.
    await createBoard(server, id);
    const { leaderboard } = await server.data(`{ leaderboard(id: "${id}") { totalCount entries { totalCount } } }`);
    expect(leaderboard).toEqual({ totalCount: 0, entries: { totalCount: 0 } });
  });
});
