import { type RateLimitScope, rateLimitKey } from '../keys';
import { type Reply, shape } from '../replies';
import type { ScriptRunner } from '../scriptRunner';
import type { ScriptContract } from '../scriptLoader';

/** rate_limit.lua: one fixed-window counter. */
export const contract = { changesBoard: false, replies: { reply: shape('count', 'resetInMs') } } satisfies ScriptContract;

export interface WindowCount {
  /** Requests in the current window, this one included. */
  count: number;
  /** Until the window ends and the count starts again. */
  resetInMs: number;
}

/** Counts `amount` for `id` in its current window. */
export async function countInWindow(scripts: ScriptRunner, scope: RateLimitScope, id: string, windowMs: number, amount: number): Promise<WindowCount> {
  const reply = (await scripts.read('rate_limit', [rateLimitKey(scope, id)], [windowMs, amount])) as Reply;
  const at = contract.replies.reply.at;
  return { count: reply[at.count] as number, resetInMs: reply[at.resetInMs] as number };
}
