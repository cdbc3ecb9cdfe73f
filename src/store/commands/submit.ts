import type { PeriodSlot, Submission, SubmitPlan, SubmitResult } from '../../model';
import { boardKeys, slotKeys } from '../keys';
import { directionOf, makeEntry, type Reply, shape, toScore } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptArg, ScriptContract } from '../scriptLoader';
import { bucketOf, formatScore, periodsFingerprint } from './arguments';
import { decodeErrors, refusedInput, type StaleLayout, staleLayout } from './scriptErrors';

/** submit.lua: score submissions to one board, in every period each lands in. */
export const contract = {
  changesBoard: true,
  replies: {
    reply: shape('sortOrder', 'results', 'replayed'),
    results: shape('member', 'stored', 'rank0', 'sharedRank', 'total', 'previous', 'previousRank0', 'changed', 'kind', 'key'),
  },
} satisfies ScriptContract;

const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** A plan, and the board's periods it was made from (BoardConfig.periods): the script refuses a plan made from others. */
export interface PlannedSubmit {
  periods: string;
  plan: SubmitPlan;
}

/** Where every submission lands on a board that keeps ALL_TIME only. */
export const allTimeOnly = (count: number): PlannedSubmit => ({
  periods: '',
  plan: {
    windows: [{ from: 0, to: null }],
    slots: [{ kind: 'ALL_TIME', key: 'all', expiresAtMs: null }],
    itemSlots: Array.from({ length: count }, () => [0]),
  },
});

/**
 * What a submission call did: the results, in order; or nothing written, because there is no
 * such board (`missing`), the board changed since its periods and bucket count were read
 * (STALE_LAYOUT: read them again), or Redis' clock put a live moment outside the plan's windows
 * (`moment`, µs: plan again at it).
 */
export type SubmitOutcome = { results: SubmitResult[] } | { missing: true } | StaleLayout | { stale: 'moment'; moment: number };

/** BAD_USER_INPUT for an imported moment in the future or outside every kept period, and for an INCREMENT past the score bounds. */
export async function submit(
  scripts: ScriptRunner, boardId: string, buckets: number, submissions: Submission[], planned: PlannedSubmit,
): Promise<SubmitOutcome> {
  const [keys, args] = submitCall(boardId, buckets, submissions, planned);
  args.push(...scripts.nowArgs());
  const reply = await decodeErrors<unknown, SubmitOutcome>(scripts.write('submit', keys, args), {
    NOT_FOUND: () => ({ missing: true }),
    STALE_BUCKETS: staleLayout,
    STALE_PERIODS: ({ text }) => ({ stale: 'moment', moment: Number(text) }),
    BAD_USER_INPUT: (error) => {
      throw refusedInput(error);
    },
  });
  return Array.isArray(reply) ? { results: submitResults(reply as Reply) } : (reply as SubmitOutcome);
}

/** submit.lua's keys and arguments for a plan (see its header). */
function submitCall(boardId: string, buckets: number, submissions: Submission[], { periods, plan }: PlannedSubmit): [string[], ScriptArg[]] {
  const keys = boardKeys(boardId);
  const slots = plan.slots.map((slot) => slotKeys(keys, slot));
  const bucketKeys: string[] = [];
  const idempotencyKeys: string[] = [];
  const args: ScriptArg[] = [buckets, submissions.length, IDEMPOTENCY_TTL_SECONDS, keys.events, periodsFingerprint(periods)];
  args.push(plan.windows.length, ...plan.windows.flatMap(({ from, to }) => [String(from), to === null ? '' : String(to)]));
  args.push(plan.slots.length, ...plan.slots.flatMap(({ kind, key, expiresAtMs }) => [kind, key, expiresAtMs === null ? '' : String(expiresAtMs)]));
  submissions.forEach((s, i) => {
    const bucket = bucketOf(s.playerId, buckets);
    for (const slot of plan.itemSlots[i]) bucketKeys.push(slots[slot].bucket(bucket));
    if (s.idempotencyKey !== undefined) idempotencyKeys.push(keys.idempotency(s.idempotencyKey));
    args.push(
      s.playerId, formatScore(s.score),
      s.reachedAtMicros === undefined ? '' : String(s.reachedAtMicros), s.idempotencyKey === undefined ? '' : '1',
      plan.itemSlots[i].map((slot) => slot + 1).join(' '),
    );
  });
  return [[keys.config, keys.watched, ...slots.map((slot) => slot.ranking), ...bucketKeys, ...idempotencyKeys, keys.distinct], args];
}

/**
 * The period a submit record's entry is on; undefined for ALL_TIME, and for a record an
 * idempotency key saved before records named their period (all of them were then ALL_TIME's
 * answers on boards keeping it).
 */
function periodOfRecord(kind: Buffer | undefined, key: Buffer | undefined): PeriodSlot | undefined {
  if (kind === undefined || key === undefined) return undefined;
  const name = kind.toString();
  return name === 'ALL_TIME' ? undefined : { kind: name, key: key.toString() };
}

function submitResults(reply: Reply): SubmitResult[] {
  const { reply: { at }, results: { at: field } } = contract.replies;
  const dir = directionOf(reply[at.sortOrder] as Buffer);
  const replayed = reply[at.replayed] as number[];
  return (reply[at.results] as Reply[]).map((result, i) => {
    const previous = (result[field.previous] as Buffer).toString();
    const previousRank0 = result[field.previousRank0] as number;
    return {
      entry: makeEntry(dir, result[field.member] as Buffer, (result[field.stored] as Buffer).toString(),
        result[field.rank0] as number, result[field.sharedRank] as number, result[field.total] as number),
      previousScore: previous === '' ? null : toScore(dir, previous),
      previousRank: previousRank0 < 0 ? null : previousRank0 + 1,
      changed: result[field.changed] === 1,
      replayed: replayed[i] === 1,
      period: periodOfRecord(result[field.kind] as Buffer | undefined, result[field.key] as Buffer | undefined),
    };
  });
}
