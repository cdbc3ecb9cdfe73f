import { boardNotFound } from '../../errors';
import type { EventBridge } from '../../store/eventBridge';
import type { Leaderboards } from '../leaderboards';
import { UPDATE_INTERVAL_MS } from '../limits';
import { checkEvery, checkId, checkLimit, checkRadius } from '../validation';
import { BoardFeed } from './boardFeed';
import type { FeedItem } from './fanOut';
import type { LiveStream } from './liveStream';
import type { Clock } from './refreshScheduler';
import { AroundWatch, type LiveWindow, PlayerWatch, type RankChange, TopWatch, type TopUpdate } from './watches';

/**
 * Live updates, for any transport: each subscription is an async iterator of payloads. Boards
 * are followed only while someone subscribes to them on this server (one BoardFeed and one Redis
 * subscription per board); every server instance follows the boards its own clients watch.
 */
export class LiveBoards {
  private readonly feeds = new Map<string, BoardFeed>();

  /** `intervalMs`: tests make it 0 to see every change on its own; `clock`: tests move time themselves. */
  constructor(
    private readonly leaderboards: Leaderboards,
    private readonly bridge: EventBridge,
    private readonly intervalMs = UPDATE_INTERVAL_MS,
    private readonly clock?: Clock,
  ) {}

  /**
   * The player's standing now, then whenever their rank or score moves; with `every` (ms), moves
   * caused by other players at most once in that time, the player's own changes at once.
   */
  rankChanged(boardId: string, playerId: string, every?: number | null): Promise<LiveStream<RankChange>> {
    const player = checkId(playerId, 'playerId');
    const everyMs = every == null ? 0 : checkEvery(every);
    return this.streamOf(boardId, (feed) => feed.watch(`rank:${everyMs}:${player}`, () => new PlayerWatch(player, everyMs)));
  }

  topChanged(boardId: string, first: number): Promise<LiveStream<TopUpdate>> {
    const limit = checkLimit(first);
    return this.streamOf(boardId, (feed) => feed.watch(`top:${limit}`, () => new TopWatch(limit)));
  }

  /** As `rankChanged`, for the player's window. */
  aroundChanged(boardId: string, playerId: string, radius: number, every?: number | null): Promise<LiveStream<LiveWindow>> {
    const player = checkId(playerId, 'playerId');
    const size = checkRadius(radius);
    const everyMs = every == null ? 0 : checkEvery(every);
    return this.streamOf(boardId, (feed) => feed.watch(`around:${size}:${everyMs}:${player}`, () => new AroundWatch(player, size, everyMs)));
  }

  /** Every accepted score change from now on, and a MissedEvents where some may be missing; no snapshot. */
  entrySubmitted(boardId: string): Promise<LiveStream<FeedItem>> {
    return this.streamOf(boardId, (feed) => feed.joinFeed());
  }

  /**
   * Subscribes to the board's events before checking that it exists and before anything is read,
   * so nothing that happens after the first read is missed. NOT_FOUND for a board that does not
   * exist (or is deleted meanwhile), UNAVAILABLE when Redis cannot be reached.
   */
  private async streamOf<P>(boardId: string, attach: (feed: BoardFeed) => LiveStream<P>): Promise<LiveStream<P>> {
    const id = checkId(boardId, 'leaderboardId');
    const feed = await this.open(id);
    try {
      const board = await this.leaderboards.getBoard(id);
      if (!board || feed.closed) throw boardNotFound(id);
      return attach(feed);
    } catch (err) {
      feed.release();
      throw err;
    }
  }

  /** The board's feed, once its channel is subscribed; takes one acquire of it. */
  private async open(boardId: string): Promise<BoardFeed> {
    let feed = this.feeds.get(boardId);
    if (!feed) {
      const created = new BoardFeed(boardId, this.leaderboards, this.bridge, this.intervalMs, () => {
        if (this.feeds.get(boardId) === created) this.feeds.delete(boardId);
      }, this.clock);
      this.feeds.set(boardId, (feed = created));
    }
    feed.acquire();
    try {
      await feed.ready;
    } catch (err) {
      feed.release();
      throw err;
    }
    return feed;
  }
}
