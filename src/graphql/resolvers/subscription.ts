import { type FeedItem, MissedEvents } from '../../domain/live/fanOut';
import { eventsMissed } from '../../errors';
import type { LiveWindow, RankChange, TopUpdate } from '../../domain/live/watches';
import type { SubscriptionResolvers } from '../../generated/graphql';
import { onBoard, windowOnBoard } from '../models';

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
    resolve: (change: RankChange, { leaderboardId }: BoardArgs) => ({ ...change, entry: change.entry && onBoard(leaderboardId, change.entry) }),
  },
  topChanged: {
    subscribe: (_root, { leaderboardId, first }, { live }) => live.topChanged(leaderboardId, first),
    resolve: ({ entries, version }: TopUpdate, { leaderboardId }: BoardArgs) => ({
      entries: entries.map((entry) => onBoard(leaderboardId, entry)),
      version: String(version),
    }),
  },
  aroundChanged: {
    subscribe: (_root, { leaderboardId, playerId, radius, every }, { live }) => live.aroundChanged(leaderboardId, playerId, radius, every),
    resolve: (window: LiveWindow, { leaderboardId }: BoardArgs) => windowOnBoard(leaderboardId, window),
  },
  entrySubmitted: {
    subscribe: (_root, { leaderboardId }, { live }) => live.entrySubmitted(leaderboardId),
    resolve: (item: FeedItem, { leaderboardId }: BoardArgs) => {
      if (item instanceof MissedEvents) throw eventsMissed(item.reason);
      return { ...item, entry: onBoard(leaderboardId, item.entry) };
    },
  },
};
