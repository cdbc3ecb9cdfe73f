// Periods on a board (issue 13): createLeaderboard keeps them, compares them when the board is
// created again, and refuses bad ones naming the field, writing nothing.
import { uniqueId } from '../support/redis';
import { CREATE_BOARD, TestServer } from '../support/harness';

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

const PERIODS = {
  timeZone: 'Asia/Tokyo',
  kinds: [{ kind: 'WEEKLY' }, { kind: 'ALL_TIME' }, { kind: 'DAILY', retention: 3 }, { kind: 'SEASON' }],
  seasons: [{ id: 's1', start: '2026-01-01T00:00:00Z', end: '2026-04-01T00:00:00Z' }],
};
const create = (id: string, periods?: unknown) =>
  server.post(CREATE_BOARD, { input: { id, sortOrder: 'DESCENDING', updatePolicy: 'BEST', periods } });
const userErrors = async (id: string, periods?: unknown) => (await create(id, periods)).body.data.createLeaderboard.userErrors;

it('keeps a board\'s periods: the same periods again (in any order, defaults spelled out) return the board', async () => {
  const id = uniqueId('periods');
  expect(await userErrors(id, PERIODS)).toEqual([]);
  const same = { ...PERIODS, kinds: [{ kind: 'SEASON', retention: 2 }, { kind: 'DAILY', retention: 3 }, { kind: 'ALL_TIME' }, { kind: 'WEEKLY', retention: 5 }] };
  expect(await userErrors(id, same)).toEqual([]);
});

it('answers CONFLICT naming the period setting that differs, and changes nothing', async () => {
  const id = uniqueId('periods-conflict');
  await create(id, PERIODS);
  const differing: [unknown, string[]][] = [
    [{ ...PERIODS, timeZone: 'Europe/Berlin' }, ['periods', 'timeZone']],
    [{ ...PERIODS, kinds: PERIODS.kinds.slice(1) }, ['periods', 'kinds']],
    [{ ...PERIODS, kinds: [...PERIODS.kinds.slice(0, 2), { kind: 'DAILY', retention: 4 }, { kind: 'SEASON' }] }, ['periods', 'kinds', 'DAILY', 'retention']],
    [{ ...PERIODS, seasons: [] }, ['periods', 'seasons', '0']],
    [undefined, ['periods', 'timeZone']],
  ];
  for (const [periods, field] of differing) {
    expect(await userErrors(id, periods)).toEqual([expect.objectContaining({ code: 'CONFLICT', field: ['input', ...field] })]);
  }
  expect(await userErrors(id, PERIODS)).toEqual([]);
});

it('treats a board that names no periods as ALL_TIME in UTC, as before periods', async () => {
  const id = uniqueId('periods-default');
  expect(await userErrors(id)).toEqual([]);
  expect(await userErrors(id, { kinds: [{ kind: 'ALL_TIME' }], timeZone: 'UTC' })).toEqual([]);
  expect(await userErrors(id, { kinds: [{ kind: 'ALL_TIME' }, { kind: 'DAILY' }] })).toEqual([
    expect.objectContaining({ code: 'CONFLICT', field: ['input', 'periods', 'kinds'] }),
  ]);
});

it('refuses bad periods with BAD_USER_INPUT naming the field, and creates nothing', async () => {
  const bad: [unknown, string[]][] = [
    [{ timeZone: 'Mars/Olympus' }, ['periods', 'timeZone']],
    [{ kinds: [] }, ['periods', 'kinds']],
    [{ kinds: [{ kind: 'DAILY', retention: 0 }] }, ['periods', 'kinds', '0', 'retention']],
    [{ kinds: [{ kind: 'DAILY', retention: 401 }] }, ['periods', 'kinds', '0', 'retention']],
    [{ kinds: [{ kind: 'DAILY' }, { kind: 'DAILY' }] }, ['periods', 'kinds', '1', 'kind']],
    [{ kinds: [{ kind: 'ALL_TIME', retention: 2 }] }, ['periods', 'kinds', '0', 'retention']],
    [{ kinds: [{ kind: 'DAILY' }], seasons: PERIODS.seasons }, ['periods', 'seasons']],
    [{ kinds: [{ kind: 'SEASON' }], seasons: [{ id: 'a', start: '2026-02-01T00:00:00Z', end: '2026-01-01T00:00:00Z' }] }, ['periods', 'seasons', '0', 'end']],
    [{ kinds: [{ kind: 'SEASON' }], seasons: [PERIODS.seasons[0], { id: 's2', start: '2026-03-01T00:00:00Z', end: '2026-05-01T00:00:00Z' }] }, ['periods', 'seasons', '1']],
  ];
  for (const [periods, field] of bad) {
    const id = uniqueId('periods-bad');
    expect(await userErrors(id, periods)).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', field: ['input', ...field] })]);
    expect((await server.data('query ($id: ID!) { leaderboard(id: $id) { id } }', { id })).leaderboard).toBeNull();
  }
});
