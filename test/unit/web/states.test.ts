// What the spectator page says when its subscription is refused, told apart by the error's code and field.
import { whyEnded } from '../../../web/live/states';

const refused = (code: string, field?: string, message = 'refused') => [{ message, extensions: { code, details: field ? { field } : undefined } }];

describe("the spectator page's ending states", () => {
  it('tells a missing board from a period it no longer keeps or does not keep', () => {
    expect(whyEnded(refused('NOT_FOUND', 'leaderboardId'), 'b', null)?.state).toBe('missing');
    expect(whyEnded(refused('NOT_FOUND', 'period'), 'b', { kind: 'DAILY', key: '2026-12-01' })?.state).toBe('unkept');
    expect(whyEnded(refused('BAD_USER_INPUT', 'period.kind'), 'b', { kind: 'MONTHLY' })?.state).toBe('unkept');
  });

  it('says that no season is running, in the server\'s words, when the current season is asked for between seasons', () => {
    const ended = whyEnded(refused('NOT_FOUND', 'period.kind', 'no season is running now: the next, s2, starts at 2027-04-01T00:00:00.000Z'), 'b', { kind: 'SEASON' });
    expect(ended).toEqual({ state: 'unkept', message: 'no season is running now: the next, s2, starts at 2027-04-01T00:00:00.000Z: pick another period above.' });
  });

  it('lets other refusals pass', () => {
    expect(whyEnded(refused('UNAVAILABLE'), 'b', null)).toBeNull();
  });
});
