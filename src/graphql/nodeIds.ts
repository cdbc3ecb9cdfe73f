import { MAX_PAGE_SIZE, MAX_RADIUS } from '../domain/limits';
import { checkId, checkLimit, checkRadius, checkScore } from '../domain/validation';

/**
 * The ids of Node objects (`Entry`, `RankWindow`, `TopUpdate`, `Period`, `CombinedView`): base64url of a type tag and what
 * names the object, joined by spaces (no board or player id holds one). They name the object,
 * never its state, so an object keeps its id while its score or rank moves and a client cache
 * updates it in place. Board and player ids are the callers' own and are not encoded here.
 */
export type NodeKey =
  | { type: 'Entry'; boardId: string; period?: PeriodName; view?: ViewName; playerId: string }
  | { type: 'RankWindow'; boardId: string; period?: PeriodName; view?: ViewName; playerId: string; radius: number }
  | { type: 'RankWindow'; boardId: string; period?: PeriodName; view?: ViewName; score: number; radius: number }
  | { type: 'TopUpdate'; boardId: string; period?: PeriodName; first: number }
  | { type: 'Period'; boardId: string; period: PeriodName }
  | { type: 'CombinedView'; view: ViewName };

/**
 * A combined view as an id names it: its aggregate and sources, each `board/kind/key/weight` (no
 * board id, kind, period key or number holds a slash), after `view` at the id's end.
 */
export interface ViewName {
  aggregate: string;
  sources: readonly { boardId: string; kind: string; key: string; weight: number }[];
}

/** A period as an id names it (none: ALL_TIME, so ids made before periods existed stay valid). */
interface PeriodName {
  kind: string;
  key: string;
}

const SEPARATOR = ' ';

export function encodeNodeId(key: NodeKey): string {
  const period = 'period' in key && key.period ? ['period', key.period.kind, key.period.key] : [];
  const view = 'view' in key && key.view
    ? ['view', key.view.aggregate, ...key.view.sources.map(({ boardId, kind, key: period, weight }) => [boardId, kind, period, String(weight)].join('/'))]
    : [];
  return Buffer.from([...partsOf(key), ...period, ...view].join(SEPARATOR), 'utf8').toString('base64url');
}

function partsOf(key: NodeKey): string[] {
  switch (key.type) {
    case 'CombinedView':
      return [key.type];
    case 'Entry':
      return [key.type, key.boardId, key.playerId];
    case 'RankWindow':
      return 'playerId' in key
        ? [key.type, key.boardId, 'player', key.playerId, String(key.radius)]
        : [key.type, key.boardId, 'score', String(key.score), String(key.radius)];
    case 'TopUpdate':
      return [key.type, key.boardId, String(key.first)];
    case 'Period':
      return [key.type, key.boardId];
  }
}

/**
 * What an id names; null for anything that is not an id this module made (garbled, another
 * type's, arguments out of range), since `node(id:)` answers those with null rather than an error.
 */
export function decodeNodeId(id: string): NodeKey | null {
  try {
    const { parts, view } = withoutView(Buffer.from(id, 'base64url').toString('utf8').split(SEPARATOR));
    const key = keyOf(withoutPeriod(parts), view);
    // One object, one id: a text that decodes to the same key by another spelling is not its id.
    return key && encodeNodeId(key) === id ? key : null;
  } catch {
    return null; // a part failed its check
  }
}

/** The parts of an id with its period's (`period <kind> <key>` at the end) taken off. */
function withoutPeriod(parts: string[]): { parts: string[]; period?: PeriodName } {
  const at = parts.length - 3;
  if (at < 2 || parts[at] !== 'period') return { parts };
  return { parts: parts.slice(0, at), period: { kind: parts[at + 1], key: parts[at + 2] } };
}

/** The parts of an id with its view's (`view <aggregate> <source>...` at the end) taken off. */
function withoutView(parts: string[]): { parts: string[]; view?: ViewName } {
  let at = parts.length;
  while (at > 0 && parts[at - 1].includes('/')) at--;
  if (at === parts.length || at < 3 || parts[at - 2] !== 'view') return { parts };
  const sources = parts.slice(at).map((source) => {
    const [boardId, kind, key, weight, ...rest] = source.split('/');
    if (rest.length > 0 || !/^[A-Z_]+$/.test(kind) || !/^[\w.-]+$/.test(key)) throw new Error('not a source');
    return { boardId: checkId(boardId, 'id'), kind, key, weight: Number(weight) };
  });
  return { parts: parts.slice(0, at - 2), view: { aggregate: parts[at - 1], sources } };
}

function keyOf({ parts, period }: { parts: string[]; period?: PeriodName }, view?: ViewName): NodeKey | null {
  // A view is all a CombinedView's id names, and an entry or window is on a view or a period, not both.
  if (parts[0] === 'CombinedView') return view && parts.length === 1 ? { type: 'CombinedView', view } : null;
  if (view && period) return null;
  // A period is all a Period's id names besides its board, so it cannot go without one.
  if (parts[0] === 'Period') return period && parts.length === 2 && !view ? { type: 'Period', boardId: checkId(parts[1], 'id'), period } : null;
  const key = keyOfParts(parts);
  if (key && view) return key.type === 'TopUpdate' ? null : { ...key, view };
  return key && period ? { ...key, period } : key;
}

function keyOfParts(parts: string[]): Exclude<NodeKey, { type: 'Period' | 'CombinedView' }> | null {
  const [type, board, ...rest] = parts;
  const boardId = checkId(board, 'id');
  if (type === 'Entry' && rest.length === 1) return { type, boardId, playerId: checkId(rest[0], 'id') };
  if (type === 'TopUpdate' && rest.length === 1) return { type, boardId, first: checkLimit(integer(rest[0])) };
  if (type === 'RankWindow' && rest.length === 3) {
    const radius = checkRadius(integer(rest[2]));
    if (rest[0] === 'player') return { type, boardId, playerId: checkId(rest[1], 'id'), radius };
    if (rest[0] === 'score') return { type, boardId, score: checkScore(Number(rest[1])), radius };
  }
  return null;
}

const integer = (text: string): number => (/^\d+$/.test(text) ? Number(text) : NaN);

/**
 * The entries the object an id names may hold, for the query cost (validationRules.ts): a
 * RankWindow's 2 * radius + 1, a TopUpdate's `first`, else 1. Read from the id's text alone,
 * without decodeNodeId's checks, since a request may hold a thousand ids and most of its cost
 * refusals are decided by a few of them: a garbled id counts as what it claims, or as 1, and is
 * answered null when read.
 */
export function entriesNamedBy(id: string): number {
  const parts = Buffer.from(id, 'base64url').toString('latin1').split(SEPARATOR, 5);
  const size = (text: string | undefined, largest: number) => Math.min(/^\d+$/.test(text ?? '') ? Number(text) : 1, largest);
  if (parts[0] === 'RankWindow') return 2 * size(parts[4], MAX_RADIUS) + 1;
  if (parts[0] === 'TopUpdate') return size(parts[2], MAX_PAGE_SIZE);
  return 1;
}

/** Whether an id names a combined view or what is on one (opening it opens the view), from its text alone, as entriesNamedBy. */
export function namesView(id: string): boolean {
  return / view (SUM|MAX|MIN) /.test(Buffer.from(id, 'base64url').toString('latin1'));
}
