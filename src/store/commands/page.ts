import type { Entry, PageOptions, RankingRef, ScoreRange } from '../../model';
import { rankingKeys } from '../keys';
import { decodeCursor, type Reply, shape, windowOf } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptArg, ScriptContract } from '../scriptLoader';
import { rangeArgs } from './arguments';

/** page.lua: one page of a ranking, of a score range of it, or its top percent. */
export const contract = {
  changesBoard: false,
  replies: { reply: shape('sortOrder', 'total', 'start', 'firstShared', 'hasMore', 'count', 'version', 'entries', 'rangeStart') },
} satisfies ScriptContract;

/** What a page read gives: `count` is the top-percent size or the entries in the score range (else 0). */
export interface PageRead {
  entries: Entry[];
  total: number;
  hasMore: boolean;
  count: number;
  version: number;
  rangeStart: number;
}

/**
 * Entries top-down, paged as `options` say, over the whole ranking or over a score range; or,
 * with `topPercent`, the top percent of it (at most `options.limit`). An unknown board reads
 * as empty.
 */
export async function readPage(
  scripts: ScriptRunner, ref: RankingRef, options: PageOptions, within: { range?: ScoreRange; topPercent?: number } = {},
): Promise<PageRead> {
  const keys = rankingKeys(ref);
  const args: ScriptArg[] = [...pageArgs(options), within.topPercent === undefined ? '' : String(within.topPercent)];
  if (within.range) args.push(...rangeArgs(within.range));
  const reply = (await scripts.read('page', [keys.config, keys.ranking], args)) as Reply;
  const at = contract.replies.reply.at;
  const { entries, total } = windowOf(reply, at);
  return {
    entries, total, hasMore: reply[at.hasMore] === 1,
    count: (reply[at.count] as number | undefined) ?? 0,
    version: (reply[at.version] as number | undefined) ?? 0,
    rangeStart: (reply[at.rangeStart] as number | undefined) ?? 0,
  };
}

/** page.lua's paging arguments: limit, backward, offset and the cursor's two. */
function pageArgs(options: PageOptions): ScriptArg[] {
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor, options.backward ? 'before' : 'after');
  return [options.limit, options.backward ? '1' : '', options.offset ?? 0, cursor?.stored ?? '', cursor?.member ?? ''];
}
