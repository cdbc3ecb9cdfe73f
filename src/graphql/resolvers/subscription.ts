import { type FeedItem, MissedEvents } from '../../domain/live/fanOut';
import { eventsMissed } from '../../errors';
import type { LiveWindow, RankChange, TopUpdate } from '../../domain/live/watches';
import type { RankChangeCause, SubscriptionResolvers } from '../../generated/graphql';
import { onBoard, topOnBoard, windowOnBoard } from '../models';

interface BoardArgs {
  leaderboardId: string;
}

/**
 * Subscriptions are LiveBoards' streams; `resolve` turns a payload into the GraphQL shape. Payloads
 * are shared by every subscriber of the same thing, and the WebSocket layer executes each payload
 * once per distinct operation (src/graphql/liveExecution.ts), so this runs once per update, not
 * once per subscriber.
 */
export const Subscription: SubscriptionResolvers = {
  rankChanged: {
    subscribe: (_root, { leaderboardId, playerId, every }, { live }) => live.rankChanged(leaderboardId, playerId, every),
    resolve: (change: RankChange, { leaderboardId }: BoardArgs) => ({
      ...change,
      entry: change.entry && onBoard(leaderboardId, change.entry),
      cause: change.cause.toUpperCase() as RankChangeCause,
    }),
  },
  topChanged: {
    subscribe: (_root, { leaderboardId, first }, { live }) => live.topChanged(leaderboardId, first),
    resolve: (top: TopUpdate, { leaderboardId, first }: BoardArgs & { first: number }) => topOnBoard(leaderboardId, first, top),
  },
  aroundChanged: {
    subscribe: (_root, { leaderboardId, playerId, radius, every }, { live }) => live.aroundChanged(leaderboardId, playerId, radius, every),
    resolve: (window: LiveWindow, { leaderboardId, playerId, radius }: BoardArgs & { playerId: string; radius: number }) =>
      windowOnBoard(leaderboardId, window, { playerId, radius }),
  },
  entrySubmitted: {
    subscribe: (_root, { leaderboardId }, { live }) => live.entrySubmitted(leaderboardId),
    resolve: (item: FeedItem, { leaderboardId }: BoardArgs) => {
      if (item instanceof MissedEvents) throw eventsMissed(item.reason);
      return { ...item, entry: onBoard(leaderboardId, item.entry) };
    },
  },
};
