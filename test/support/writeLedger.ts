// Counts what became of every write under faults: applied once, lost, applied twice, or applied
// although the client was told it was not. Shared by the fault-injection tests and `bench:soak --chaos`.
//
// The board is INCREMENT, and a player's k-th submission adds 3^k: the player's total, read back
// in base 3, says how many times each submission was applied (digit 0, 1 or 2), whatever order
// they were applied in and however the answers went.

/** Submissions per player: 3^k stays exact (and below 2^53 with every digit at 2) up to k = 32. */
export const SUBMISSIONS_PER_PLAYER = 20;

/** What the client was told. `reset`: no HTTP answer at all (the connection failed). */
export type Answer = 'applied' | 'NOT_APPLIED' | 'UNKNOWN' | 'reset';

export interface Audit {
  submissions: number;
  /** Answered with data. */
  acknowledged: number;
  /** UNAVAILABLE with outcome UNKNOWN, or no answer, and not settled by a retry. */
  unknown: number;
  /** Of those, how many turned out to be applied. */
  unknownApplied: number;
  /** Answered NOT_APPLIED. */
  notApplied: number;
  /** Acknowledged, and not on the board. */
  lost: number;
  /** On the board more than once. */
  doubled: number;
  /** Answered NOT_APPLIED, and on the board. */
  appliedAfterNotApplied: number;
  /** A first attempt with an idempotency key that answered `replayed: true`: an earlier copy of it ran. */
  replayedFirstAttempts: number;
}

export const SUBMIT_INCREMENT = /* GraphQL */ `
  mutation ($input: SubmitScoreInput!) { submitScore(input: $input) { replayed userErrors { code message } } }
`;

export class WriteLedger {
  private readonly answers = new Map<string, Answer[]>();
  private answered = 0;
  private replayedFirst = 0;
  private readonly counts = new Map<Answer, number>();
  private readonly waiters: { done: () => boolean; resolve: () => void }[] = [];

  /** The players' current totals are what `audit` checks against. */
  record(playerId: string, k: number, answer: Answer, replayedOnFirstAttempt = false): void {
    let answers = this.answers.get(playerId);
    if (!answers) this.answers.set(playerId, (answers = []));
    answers[k] = answer;
    this.answered++;
    if (replayedOnFirstAttempt) this.replayedFirst++;
    this.counts.set(answer, this.count(answer) + 1);
    for (const waiter of [...this.waiters]) {
      if (!waiter.done()) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  count(answer?: Answer): number {
    return answer === undefined ? this.answered : (this.counts.get(answer) ?? 0);
  }

  /** Resolves once `done()` holds, checked after every answer. */
  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ done, resolve }));
  }

  get players(): string[] {
    return [...this.answers.keys()];
  }

  audit(totals: ReadonlyMap<string, number>): Audit {
    const audit: Audit = {
      submissions: 0, acknowledged: 0, unknown: 0, unknownApplied: 0, notApplied: 0,
      lost: 0, doubled: 0, appliedAfterNotApplied: 0, replayedFirstAttempts: this.replayedFirst,
    };
    for (const [playerId, answers] of this.answers) {
      const applied = digits(totals.get(playerId) ?? 0);
      answers.forEach((answer, k) => {
        const times = applied[k];
        audit.submissions++;
        if (times > 1) audit.doubled++;
        if (answer === 'applied') {
          audit.acknowledged++;
          if (times === 0) audit.lost++;
        } else if (answer === 'NOT_APPLIED') {
          audit.notApplied++;
          if (times > 0) audit.appliedAfterNotApplied++;
        } else {
          audit.unknown++;
          if (times > 0) audit.unknownApplied++;
        }
      });
      // Digits past what was submitted: something was applied that nobody sent.
      if (applied.slice(answers.length).some((times) => times > 0)) audit.doubled++;
    }
    return audit;
  }
}

/** How many times each submission 0..SUBMISSIONS_PER_PLAYER-1 is in the total. */
function digits(total: number): number[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new Error(`not a total of powers of 3: ${total}`);
  const out: number[] = [];
  for (let k = 0; k < SUBMISSIONS_PER_PLAYER + 2; k++) {
    out.push(total % 3);
    total = (total - out[k]) / 3;
  }
  return out;
}

export interface WriterOptions {
  graphqlUrl: string;
  /** A writer (or admin) key. */
  key: string;
  boardId: string;
  /** The writer's players: `${name}-p<j>`. */
  name: string;
  players: number;
  /** With idempotency keys, an UNKNOWN answer is retried with the same key until it is settled. */
  idempotent: boolean;
  /** After a failed request, as a client backs off before its next one. */
  backoffMs: number;
  /** Keyed retries of one submission before it is left as unknown. */
  maxRetries?: number;
  /** Asked before each submission: false stops the writer early. */
  goOn?: () => boolean;
}

/** One writer: each of its players' submissions in turn, each answered before the next is sent. */
export async function runWriter(ledger: WriteLedger, options: WriterOptions): Promise<void> {
  const { players, maxRetries = 200 } = options;
  for (let k = 0; k < SUBMISSIONS_PER_PLAYER; k++) {
    for (let j = 0; j < players; j++) {
      if (options.goOn && !options.goOn()) return;
      const playerId = `${options.name}-p${j}`;
      const idempotencyKey = options.idempotent ? `${playerId}-k${k}` : undefined;
      let { answer, replayed } = await submit(options, playerId, 3 ** k, idempotencyKey);
      const replayedFirst = replayed;
      for (let retry = 0; idempotencyKey && answer !== 'applied' && answer !== 'NOT_APPLIED' && retry < maxRetries; retry++) {
        await pause(options.backoffMs);
        const again = await submit(options, playerId, 3 ** k, idempotencyKey);
        // A retry refused before it ran says nothing about the attempt that may have run.
        if (again.answer !== 'NOT_APPLIED') answer = again.answer;
      }
      ledger.record(playerId, k, answer, replayedFirst);
      if (answer !== 'applied') await pause(options.backoffMs);
    }
  }
}

async function submit(
  options: WriterOptions, playerId: string, score: number, idempotencyKey: string | undefined,
): Promise<{ answer: Answer; replayed: boolean }> {
  let body: {
    data?: { submitScore?: { replayed: boolean; userErrors: unknown[] } | null } | null;
    errors?: { extensions?: { code?: string; outcome?: string } }[];
  };
  try {
    const response = await fetch(options.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.key}` },
      body: JSON.stringify({
        query: SUBMIT_INCREMENT,
        variables: { input: { leaderboardId: options.boardId, playerId, score, idempotencyKey } },
      }),
    });
    body = (await response.json()) as typeof body;
  } catch {
    return { answer: 'reset', replayed: false };
  }
  const result = body.data?.submitScore;
  if (result && result.userErrors.length === 0) return { answer: 'applied', replayed: result.replayed };
  const error = body.errors?.[0]?.extensions;
  if (error?.code === 'UNAVAILABLE' && (error.outcome === 'NOT_APPLIED' || error.outcome === 'UNKNOWN')) {
    return { answer: error.outcome, replayed: false };
  }
  throw new Error(`a write failed with something other than UNAVAILABLE and its outcome: ${JSON.stringify(body)}`);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
