import { type FeedItem, MissedEvents } from '../../domain/live/fanOut';
import { eventsMissed } from '../../errors';
import type { LiveScope, LiveWindow, RankChange, TopUpdate } from '../../domain/live/watches';
import type { RankChangeCause, SubscriptionResolvers } from '../../generated/graphql';
import { onBoard, periodOnBoard, refOnBoard, topOnBoard, windowOnBoard } from '../models';

/** What a payload's entries are read on: the board for ALL_TIME, else the period (which entry and window ids name). */
const refOfScope = ({ board, period }: LiveScope) => refOnBoard(board.id, period);

/**
 * Subscriptions are LiveBoards' streams; `resolve` turns a payload into the GraphQL shape. Payloads
 * are shared by every subscriber of the same thing, and the WebSocket layer executes each payload
 * once per distinct operation (src/graphql/execution/live.ts), so this runs once per update, not
 * once per subscriber. Each payload names its period (LiveScope): a subscription that follows the
 * current period changes period at a rollover.
 */
export const Subscription: SubscriptionResolvers = {
  rankChanged: {
    subscribe: (_root, { leaderboardId, playerId, every, period }, { live }) => live.rankChanged(leaderboardId, playerId, every, period),
    resolve: (change: RankChange) => ({
      ...change,
      entry: change.entry && onBoard(refOfScope(change.scope), change.entry),
      cause: change.cause.toUpperCase() as RankChangeCause,
    }),
  },
  topChanged: {
    subscribe: (_root, { leaderboardId, first, period }, { live }) => live.topChanged(leaderboardId, first, period),
    resolve: (top: TopUpdate, { first }: { first: number }) =>
      topOnBoard(refOfScope(top.scope), first, top, periodOnBoard(top.scope.board, top.scope.period)),
  },
  aroundChanged: {
    subscribe: (_root, { leaderboardId, playerId, radius, every, period }, { live }) =>
      live.aroundChanged(leaderboardId, playerId, radius, every, period),
    resolve: (window: LiveWindow, { playerId, radius }: { playerId: string; radius: number }) =>
      windowOnBoard(refOfScope(window.scope), window, { playerId, radius }),
  },
  entrySubmitted: {
    subscribe: (_root, { leaderboardId, period }, { live }) => live.entrySubmitted(leaderboardId, period),
    resolve: (item: FeedItem) => {
      if (item instanceof MissedEvents) throw eventsMissed(item.reason);
      return { ...item, entry: onBoard(refOfScope(item.scope), item.entry) };
    },
  },
};
