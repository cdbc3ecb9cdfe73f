import { createHash } from 'node:crypto';
import { badInput, boardNotFound, ErrorCode, StandingsError } from '../errors';
import type { LeaderboardStore } from '../store/leaderboardStore';
import type { Aggregate, BoardConfig, ViewSource, ViewSpec } from '../model';
import { DEFAULT_COMBINED_VIEW_TTL_MS, DEFAULT_VIEW_ENTRIES_PER_REQUEST, MAX_COMBINED_SOURCES, MAX_COMBINED_WEIGHT } from './limits';
import type { Period, PeriodCalendar, PeriodRequest } from './periods/calendar';
import { checkId, checkInt } from './validation';

const AGGREGATES: readonly string[] = ['SUM', 'MAX', 'MIN'];
/**
 * A view's keys outlive the time it answers reads by this much, so that a request reading a view
 * opened just before its time ran out still finds it; past that Redis drops them by itself.
 */
const KEY_GRACE_MS = 10_000;
/** Views whose build this process remembers; past it the expired ones are forgotten (or all, if none is). */
const MAX_KEPT_VIEWS = 1000;

/** One ranking a view takes in, as clients name it: a board, its period (default: the board's default period), a weight (default 1). */
export interface CombinedSourceRequest {
  leaderboardId: string;
  period?: PeriodRequest | null;
  weight?: number | null;
  /** With a period kind alone: the latest `last` periods of that kind, the current one first, each a source. */
  last?: number | null;
}

export interface CombinedViewOptions {
  /** How long a view, once built, answers reads before it is built again (ms). */
  ttlMs?: number;
  /** Entries the view builds one request starts may read in all (VIEW_ENTRIES_PER_REQUEST). */
  entriesPerRequest?: number;
  /** ms since the epoch; tests move it instead of waiting. */
  nowMs?: () => number;
}

/**
 * What charges view builds to the client that asked for them, over time (the server's rate
 * limits): `charge` counts entries and throws RATE_LIMITED past the allowance; `check` throws at
 * once, with nothing read, while the client is known to have none left.
 */
export interface ClientViewCharges {
  check(): void;
  charge(entries: number): Promise<void>;
}

/**
 * What one request has spent on building views: the entries the builds it started read (a view
 * still fresh, or being built for another request, costs nothing). Past the views' limit for one
 * request (VIEW_ENTRIES_PER_REQUEST): BAD_REQUEST with details { limit: 'viewEntries', maximum,
 * found }, before anything is read; past the client's allowance, RATE_LIMITED. Once the client's
 * allowance is refused, the request's later builds are refused at once, sizes unread.
 */
export class ViewBudget {
  private spent = 0;
  private refusal: unknown;

  constructor(private readonly client?: ClientViewCharges) {}

  /** Throws when no build of this request can be paid for, whatever its size. */
  check(): void {
    if (this.refusal !== undefined) throw this.refusal;
    this.client?.check();
  }

  async spend(entries: number, maxEntries: number): Promise<void> {
    const found = this.spent + entries;
    if (found > maxEntries) {
      throw new StandingsError(
        ErrorCode.BAD_REQUEST,
        `Building this combined view reads ${entries} entries, and one request may build views of at most ${maxEntries} entries in all: combine fewer or smaller rankings, or fewer views per request`,
        { limit: 'viewEntries', maximum: maxEntries, found },
      );
    }
    this.spent = found;
    try {
      await this.client?.charge(entries);
    } catch (err) {
      this.refusal = err;
      throw err;
    }
  }
}

/** What views need of the boards: their settings, the period a source names, and the periods of a kind kept now. */
export interface BoardsOfViews {
  getBoard(id: string): Promise<BoardConfig | null>;
  period(board: BoardConfig, request: PeriodRequest | null | undefined, field?: string): Period;
  calendar(periods: string): Pick<PeriodCalendar, 'keptKind' | 'kept' | 'retained'>;
}

interface Build {
  /** When the build began: the view is the sources as of then. */
  at: number;
  pending: boolean;
  ready: Promise<unknown>;
}

/**
 * Combined views (issue 13): several rankings, periods of one board or of several, put together
 * by SUM, MAX or MIN of weighted scores, as a snapshot in keys of its own (the store's
 * `buildView`) that the board reads then read. A view is built on its first read and answers
 * reads for `ttlMs`, then is built again on the next; reads that arrive while it is being built
 * wait for that build (one build per view at a time in this process). Each process builds its
 * own, into the same keys, which a build replaces as a whole.
 */
export class CombinedViews {
  private readonly builds = new Map<string, Build>();
  /** The build started last: the next waits for it to settle (see start). */
  private lastBuild: Promise<unknown> = Promise.resolve();
  /** Views whose build a request is paying for, by id: it starts once paid (an object, so the build's promise is not awaited with it). */
  private readonly pricing = new Map<string, Promise<{ ready: Promise<unknown> }>>();
  private readonly ttlMs: number;
  private readonly nowMs: () => number;
  private readonly entriesPerRequest: number;

  constructor(
    private readonly boards: BoardsOfViews,
    private readonly store: LeaderboardStore,
    options: CombinedViewOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_COMBINED_VIEW_TTL_MS;
    this.nowMs = options.nowMs ?? Date.now;
    this.entriesPerRequest = options.entriesPerRequest ?? DEFAULT_VIEW_ENTRIES_PER_REQUEST;
  }

  /**
   * The view of these sources, built and ready to read. BAD_USER_INPUT naming the field for no
   * source, more than MAX_COMBINED_SOURCES, a weight out of (0, MAX_COMBINED_WEIGHT], a source
   * named twice, sources of different sort orders, a period kind a board does not keep, and an
   * aggregate outside the exact range; NOT_FOUND for an unknown board or an expired period. A
   * build this call starts is paid from `budget` (none: free, for callers inside the service).
   */
  async open(sources: readonly CombinedSourceRequest[], aggregate: Aggregate, budget?: ViewBudget): Promise<ViewSpec> {
    const view = await this.check(sources, aggregate);
    await this.ready(view, budget);
    return view;
  }

  private async check(sources: readonly CombinedSourceRequest[], aggregate: Aggregate): Promise<ViewSpec> {
    if (!AGGREGATES.includes(aggregate)) throw badInput(`aggregate must be one of ${AGGREGATES.join(', ')}`, { field: 'aggregate' });
    if (sources.length === 0 || sources.length > MAX_COMBINED_SOURCES) {
      throw badInput(`sources must hold 1 to ${MAX_COMBINED_SOURCES} rankings, not ${sources.length}`, { field: 'sources' });
    }
    const ids = sources.map((source, i) => checkId(source.leaderboardId, `sources.${i}.leaderboardId`));
    const weights = sources.map((source, i) => checkWeight(source.weight, `sources.${i}.weight`));
    const boards = new Map<string, BoardConfig | null>();
    await Promise.all([...new Set(ids)].map(async (id) => boards.set(id, await this.boards.getBoard(id))));
    const seen = new Map<string, string>();
    const checked = sources.flatMap((source, i): (ViewSource & { sortOrder: string })[] => {
      const board = boards.get(ids[i]);
      if (!board) throw boardNotFound(ids[i], { field: `sources.${i}.leaderboardId` });
      return this.periodsOf(board, source, `sources.${i}`).map(({ kind, key }) => {
        const name = nameOf({ boardId: board.id, kind, key });
        const twin = seen.get(name);
        if (twin !== undefined) throw badInput(`sources.${i} names a ranking ${twin} names too (${kind} ${key})`, { field: `sources.${i}` });
        seen.set(name, `sources.${i}`);
        return { boardId: board.id, kind, key, weight: weights[i], sortOrder: board.sortOrder };
      });
    });
    if (checked.length > MAX_COMBINED_SOURCES) {
      throw badInput(`sources must hold 1 to ${MAX_COMBINED_SOURCES} rankings, and with \`last\` they name ${checked.length}`, { field: 'sources' });
    }
    const { sortOrder } = checked[0];
    const other = checked.findIndex((source) => source.sortOrder !== sortOrder);
    if (other >= 0) {
      throw badInput(`sources.${other}.leaderboardId: every source must rank in one sort order (sources.0's is ${sortOrder})`, {
        field: `sources.${other}.leaderboardId`,
      });
    }
    // In one order whatever the request's, so the same view has one id and one set of keys.
    const sorted = checked
      .map(({ boardId, kind, key, weight }) => ({ boardId, kind, key, weight }))
      .sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1));
    const text = [aggregate, ...sorted.map((source) => `${nameOf(source)} ${source.weight}`)].join('\n');
    const boardId = sorted.every((source) => source.boardId === sorted[0].boardId) ? sorted[0].boardId : undefined;
    return { id: createHash('sha1').update(text).digest('hex').slice(0, 24), boardId, aggregate, sortOrder: sortOrder as ViewSpec['sortOrder'], sources: sorted };
  }

  /**
   * The periods one source names: its period, or with `last`, the latest `last` periods of its
   * kind kept now (the current one first; fewer where fewer exist, as seasons may). BAD_USER_INPUT
   * for `last` out of range, with a moment or key, or past the kind's retention.
   */
  private periodsOf(board: BoardConfig, source: CombinedSourceRequest, field: string): Period[] {
    if (source.last == null) return [this.boards.period(board, source.period, `${field}.period`)];
    const last = checkInt(source.last, `${field}.last`, 1, MAX_COMBINED_SOURCES);
    if (source.period?.kind == null || source.period.at != null || source.period.key != null) {
      throw badInput(`${field}.last takes a period kind alone (period: { kind }), which it counts back from the current period`, { field: `${field}.period` });
    }
    const calendar = this.boards.calendar(board.periods);
    const kind = calendar.keptKind(source.period?.kind, `${field}.period.kind`);
    const retained = calendar.retained(kind);
    if (last > retained) throw badInput(`${field}.last: the board keeps ${retained} ${kind} periods, not ${last}`, { field: `${field}.last` });
    return calendar.kept(kind).slice(0, last);
  }

  /**
   * Resolves once the view's keys hold a build younger than ttlMs, building it if none does (once,
   * however many ask). The request that starts a build pays for what it reads, priced by the
   * sources' sizes before anything else is read; those that find it fresh, building or being
   * priced for another request wait for that one and pay nothing, unless its request is refused
   * (then the next one prices it for itself).
   */
  private async ready(view: ViewSpec, budget?: ViewBudget): Promise<unknown> {
    for (;;) {
      const fresh = this.fresh(view.id);
      if (fresh) return fresh;
      if (!budget) return this.start(view);
      const priced = this.pricing.get(view.id);
      if (priced) {
        const started = await priced.catch(() => undefined);
        if (started) return started.ready;
        continue;
      }
      // The build starts in the same callback as the price is paid, so that no other request can
      // find the view neither priced nor building in between.
      budget.check();
      const pricing = this.store.sourceSizes(view.sources)
        .then((sizes) => budget.spend(sizes.reduce((total, size) => total + size, 0), this.entriesPerRequest))
        .then(() => ({ ready: this.start(view) }));
      this.pricing.set(view.id, pricing);
      const forget = () => this.pricing.get(view.id) === pricing && this.pricing.delete(view.id);
      pricing.then(forget, forget);
      return (await pricing).ready;
    }
  }

  /**
   * Builds run one at a time in this process, each after the one before has settled: a build
   * holds all its entries in memory while it combines them, and builds side by side would only
   * share the same event loop, so one at a time bounds the memory they take without slowing any
   * more than it must. Readers of a queued view wait for it as for one building.
   */
  private start(view: ViewSpec): Promise<unknown> {
    const now = this.nowMs();
    this.forgetOld(now);
    const ready = this.lastBuild.then(() => this.store.buildView(view, this.ttlMs + KEY_GRACE_MS));
    this.lastBuild = ready.then(nothing, nothing);
    const build: Build = { at: now, pending: true, ready };
    this.builds.set(view.id, build);
    build.ready.then(
      () => (build.pending = false),
      () => this.builds.get(view.id) === build && this.builds.delete(view.id),
    );
    return build.ready;
  }

  /** The build that answers reads of the view now (fresh, or on its way), if any. */
  private fresh(viewId: string): Promise<unknown> | undefined {
    const kept = this.builds.get(viewId);
    return kept && (kept.pending || this.nowMs() - kept.at < this.ttlMs) ? kept.ready : undefined;
  }

  private forgetOld(now: number): void {
    if (this.builds.size < MAX_KEPT_VIEWS) return;
    for (const [id, build] of this.builds) if (!build.pending && now - build.at >= this.ttlMs) this.builds.delete(id);
    if (this.builds.size >= MAX_KEPT_VIEWS) this.builds.clear();
  }
}

const nothing = () => undefined;

const nameOf = ({ boardId, kind, key }: Omit<ViewSource, 'weight'>) => `${boardId} ${kind} ${key}`;

function checkWeight(value: number | null | undefined, field: string): number {
  if (value == null) return 1;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_COMBINED_WEIGHT) {
    throw badInput(`${field} must be a number above 0 and at most ${MAX_COMBINED_WEIGHT}`, { field });
  }
  return value;
}
