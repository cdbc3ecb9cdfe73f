// How a command module turns its script's error replies into typed results and StandingsErrors.
import { StandingsError } from '../../../src/errors';
import { decodeErrors, type ErrorTable, refusedInput, STALE_LAYOUT, staleLayout, type StaleLayout } from '../../../src/store/commands/scriptErrors';

/** An error reply as ioredis rejects with it. */
const reply = (message: string) => Promise.reject(new Error(message));

it('answers what the table gives for the code, with the text after it', async () => {
  const table: ErrorTable<StaleLayout | { moment: number }> = { STALE_BUCKETS: staleLayout, STALE_PERIODS: ({ text }) => ({ moment: Number(text) }) };
  expect(await decodeErrors(reply('STALE_BUCKETS bucket count changed'), table)).toBe(STALE_LAYOUT);
  expect(await decodeErrors(reply('STALE_PERIODS 1764547200000000'), table)).toEqual({ moment: 1764547200000000 });
  expect(await decodeErrors(Promise.resolve([1, 2]), table)).toEqual([1, 2]);
});

it('makes BAD_USER_INPUT with the field a script names in brackets, and without one when it names none', async () => {
  const table = { BAD_USER_INPUT: (error: Parameters<typeof refusedInput>[0]) => { throw refusedInput(error); } };
  await expect(decodeErrors(reply('BAD_USER_INPUT [sortOrder] sortOrder cannot change'), table)).rejects.toEqual(
    expect.objectContaining({ code: 'BAD_USER_INPUT', message: 'sortOrder cannot change', details: { field: 'sortOrder' } }),
  );
  const plain = await decodeErrors(reply('ERR BAD_USER_INPUT item 2: reachedAt is in the future'), table).catch((err: unknown) => err);
  expect(plain).toBeInstanceOf(StandingsError);
  expect(plain).toMatchObject({ message: 'item 2: reachedAt is in the future', details: {} });
});

it('leaves an error whose code the table does not name as it is', async () => {
  const outage = new Error('Connection is closed.');
  await expect(decodeErrors(Promise.reject(outage), { NOT_FOUND: staleLayout })).rejects.toBe(outage);
  await expect(decodeErrors(reply('NOT_FOUND leaderboard does not exist'), { CONFLICT: staleLayout })).rejects.toThrow('NOT_FOUND leaderboard does not exist');
});
