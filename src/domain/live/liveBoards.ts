import { boardNotFound } from '../../errors';
import type { EventBridge } from '../../store/eventBridge';
import type { BoardConfig } from '../../model';
import type { Leaderboards } from '../leaderboards';
import type { PeriodRequest } from '../periods/calendar';
import { UPDATE_INTERVAL_MS } from '../limits';
import { checkEvery, checkId, checkLimit, checkRadius } from '../validation';
import { BoardFeed, type RankingTarget } from './boardFeed';
import type { FeedItem } from './fanOut';
import type { LiveStream } from './liveStream';
import type { RankingFeed } from './rankingFeed';
import type { Clock } from './refreshScheduler';
import { AroundWatch, type LiveWindow, PlayerWatch, type RankChange, TopWatch, type TopUpdate } from './watches';

/**
 * Live updates, for any transport: each subscription is an async iterator of payloads. Boards
 * are followed only while someone subscribes to them on this server (one BoardFeed and one Redis
 * subscription per board); every server instance follows the boards its own clients watch.
 *
 * Each subscription names a period as reads do (`period`; default the board's default period).
 * One given by a moment or a key stays on that period; one without follows the current period of
 * its kind and rolls over by itself at the boundary (RankingFeed).
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
  rankChanged(boardId: string, playerId: string, every?: number | null, period?: PeriodRequest | null): Promise<LiveStream<RankChange>> {
    const player = checkId(playerId, 'playerId');
    const everyMs = every == null ? 0 : checkEvery(every);
    return this.streamOf(boardId, period, (ranking) => ranking.watch(`rank:${everyMs}:${player}`, () => new PlayerWatch(player, everyMs)));
  }

  topChanged(boardId: string, first: number, period?: PeriodRequest | null): Promise<LiveStream<TopUpdate>> {
    const limit = checkLimit(first);
    return this.streamOf(boardId, period, (ranking) => ranking.watch(`top:${limit}`, () => new TopWatch(limit)));
  }

  /** As `rankChanged`, for the player's window. */
  aroundChanged(
    boardId: string, playerId: string, radius: number, every?: number | null, period?: PeriodRequest | null,
  ): Promise<LiveStream<LiveWindow>> {
    const player = checkId(playerId, 'playerId');
    const size = checkRadius(radius);
    const everyMs = every == null ? 0 : checkEvery(every);
    return this.streamOf(boardId, period, (ranking) =>
      ranking.watch(`around:${size}:${everyMs}:${player}`, () => new AroundWatch(player, size, everyMs)));
  }

  /** Every accepted score change from now on, and a MissedEvents where some may be missing; no snapshot. */
  entrySubmitted(boardId: string, period?: PeriodRequest | null): Promise<LiveStream<FeedItem>> {
    return this.streamOf(boardId, period, (ranking) => ranking.joinFeed());
  }

  /**
   * Subscribes to the board's events before checking that it exists and before anything is read,
   * so nothing that happens after the first read is missed. NOT_FOUND for a board that does not
   * exist (or is deleted meanwhile), UNAVAILABLE when Redis cannot be reached; for the period as
   * reads: BAD_USER_INPUT for a kind the board does not keep, NOT_FOUND for one that has expired.
   */
  private async streamOf<P>(
    boardId: string, period: PeriodRequest | null | undefined, attach: (ranking: RankingFeed) => LiveStream<P>,
  ): Promise<LiveStream<P>> {
    const id = checkId(boardId, 'leaderboardId');
    const feed = await this.open(id);
    try {
      const board = await this.leaderboards.getBoard(id);
      if (!board || feed.closed) throw boardNotFound(id);
      const ranking = await feed.ranking(board, this.target(board, period));
      if (feed.closed) throw boardNotFound(id);
      return attach(ranking);
    } catch (err) {
      feed.release();
      throw err;
    }
  }

  /** The period a subscription names: without a moment or a key (or without a period), the current one, followed across boundaries. */
  private target(board: BoardConfig, request: PeriodRequest | null | undefined): RankingTarget {
    const period = this.leaderboards.period(board, request);
    return { period, rolls: period.kind !== 'ALL_TIME' && request?.at == null && request?.key == null };
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
