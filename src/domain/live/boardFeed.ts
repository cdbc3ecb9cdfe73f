import type { BoardEventMessage } from '../../store/events';
import type { BoardListener, EventBridge } from '../../store/eventBridge';
import type { BoardConfig } from '../../model';
import type { Leaderboards } from '../leaderboards';
import type { Period } from '../periods/calendar';
import { RankingFeed } from './rankingFeed';
import { type Clock, systemClock } from './refreshScheduler';

/**
 * How long a mark that a period kind is followed holds (keys.ts: st:{b}:watched), and how often a
 * feed renews its marks: well before they lapse, so a slow renewal or two leaves no gap.
 */
export const MARK_TTL_MS = 30_000;
export const MARK_RENEW_MS = 10_000;

/** Which ranking a subscription follows: a period, and whether it moves on to the current one at each boundary. */
export interface RankingTarget {
  period: Period;
  rolls: boolean;
}

/**
 * Everything this server follows on one board: one RankingFeed per ranking subscribed to
 * (ALL_TIME, a period, the current period of a kind), over one subscription to the board's
 * channel. Each message goes to every ranking feed, with that ranking's events in it, so each
 * sees every version of the board and knows when it missed one.
 *
 * Writes put the ranks of a period other than ALL_TIME in their events only while its kind is
 * marked as followed (submit.lua): the feed marks the kinds of its ranking feeds before their
 * first read, and renews the marks while it has them. A line without ranks still reaches a ranking
 * feed as a gap, and it reads Redis.
 */
export class BoardFeed implements BoardListener {
  private readonly rankings = new Map<string, RankingFeed>();
  /** The kinds marked as followed, each settling once its first mark is written. */
  private readonly marked = new Map<string, Promise<void>>();
  private renewTimer: unknown;
  private users = 0;
  private stopListening: (() => void) | undefined;
  private ended = false;
  /** Settles once the board's channel is subscribed (UNAVAILABLE when Redis cannot be reached). */
  readonly ready: Promise<void>;

  constructor(
    private readonly boardId: string,
    private readonly leaderboards: Leaderboards,
    bridge: EventBridge,
    private readonly intervalMs: number,
    private readonly onClosed: () => void,
    private readonly clock: Clock = systemClock,
  ) {
    this.ready = bridge.listen(boardId, this).then((stop) => {
      // Closed while the subscription was being set up: drop it at once.
      if (this.closed) stop();
      else this.stopListening = stop;
    });
  }

  /** Deleted, or left by its last subscriber: a new subscriber needs a new feed. */
  get closed(): boolean {
    return this.ended;
  }

  /** Someone is about to subscribe; each acquire is matched by one release (or a stream's end). */
  acquire(): void {
    this.users++;
  }

  release(): void {
    if (--this.users > 0 || this.closed) return;
    this.close();
  }

  /**
   * The feed of the ranking `target` names (created on first use), once its kind is marked as
   * followed. Each of its subscribers' streams, when it ends, gives back one acquire.
   */
  async ranking(board: BoardConfig, target: RankingTarget): Promise<RankingFeed> {
    const { kind, key } = target.period;
    const name = target.rolls ? `${kind}:current` : `${kind}:${key}`;
    let ranking = this.rankings.get(name);
    if (!ranking || ranking.stopped) {
      const created: RankingFeed = new RankingFeed(
        board, this.leaderboards, this.leaderboards.calendar(board.periods), target.period, target.rolls, this.intervalMs, this.clock,
        (idle) => {
          if (idle) this.drop(name, created);
          this.release();
        },
      );
      this.rankings.set(name, (ranking = created));
    }
    if (kind === 'ALL_TIME') return ranking;
    try {
      await this.mark(board, kind);
    } catch (err) {
      if (ranking.idle) this.drop(name, ranking);
      throw err;
    }
    // Its last subscriber may have left meanwhile, which ended it.
    return ranking.stopped ? this.ranking(board, target) : ranking;
  }

  events(message: BoardEventMessage): void {
    if (this.closed) return;
    if (message.events.some((event) => event.kind === 'deleted')) return this.deleted();
    const { version, events, periods } = message;
    // What a period's feed hears of the board's own lines: that the board was created anew or its settings changed.
    let boardWide: typeof events | undefined;
    for (const ranking of this.rankings.values()) {
      const { kind } = ranking.period;
      if (kind === 'ALL_TIME') {
        ranking.message(version, events);
        continue;
      }
      for (const changed of periods) if (changed.kind === kind) ranking.sawPeriod(changed.key);
      boardWide ??= events.filter((event) => event.kind === 'created' || event.kind === 'settings');
      const own = periods.find((changed) => changed.kind === kind && changed.key === ranking.period.key)?.events ?? [];
      ranking.message(version, boardWide.length === 0 ? own : [...boardWide, ...own]);
    }
  }

  resubscribed(): void {
    for (const ranking of this.rankings.values()) ranking.resubscribed();
  }

  /** Marks the kind as followed (once while this feed follows it) and renews the marks until none is left. */
  private mark(board: BoardConfig, kind: string): Promise<void> {
    let marked = this.marked.get(kind);
    if (!marked) {
      marked = this.writeMarks(board, [kind]);
      this.marked.set(kind, marked);
      // A mark not written is tried again by the next subscriber of the kind.
      marked.catch(() => {
        if (this.marked.get(kind) === marked) this.marked.delete(kind);
      });
      if (this.renewTimer === undefined) this.renewTimer = this.clock.setTimeout(() => this.renew(board), MARK_RENEW_MS);
    }
    return marked;
  }

  private writeMarks(board: BoardConfig, kinds: string[]): Promise<void> {
    const untilMs = this.leaderboards.calendar(board.periods).now() / 1000 + MARK_TTL_MS;
    return this.leaderboards.store.markWatched(this.boardId, kinds, untilMs, MARK_TTL_MS);
  }

  private renew(board: BoardConfig): void {
    this.renewTimer = undefined;
    if (this.closed || this.marked.size === 0) return;
    // A renewal that fails is not retried before the next: until a mark lapses, nothing is lost, and after, lines without ranks are gaps.
    this.writeMarks(board, [...this.marked.keys()]).catch(() => undefined);
    this.renewTimer = this.clock.setTimeout(() => this.renew(board), MARK_RENEW_MS);
  }

  /** A ranking's feed lost its last subscriber; its kind stops being marked when no other feed follows it. */
  private drop(name: string, ranking: RankingFeed): void {
    ranking.stop();
    if (this.rankings.get(name) === ranking) this.rankings.delete(name);
    const { kind } = ranking.period;
    if (![...this.rankings.values()].some((other) => other.period.kind === kind)) this.marked.delete(kind);
  }

  private deleted(): void {
    this.close();
    for (const ranking of this.rankings.values()) ranking.end();
  }

  private close(): void {
    this.ended = true;
    for (const ranking of this.rankings.values()) ranking.stop();
    if (this.renewTimer !== undefined) this.clock.clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
    this.stopListening?.();
    this.onClosed();
  }
}
