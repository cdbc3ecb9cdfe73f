// A list of entries kept in place: rows are matched by player, so an update adds, moves and
// removes rows instead of redrawing the list. Every change of place is made by slots opening and
// closing: a row that enters grows from nothing where it lands, a row that leaves shrinks away
// where it was (a copy of it, marked `.leaving`), and a row that jumps over others leaves its old
// place that way and enters its new one. The rows in between are only pushed by the layout, so
// no row ever slides over another (a slide would cover its neighbours' text mid-way).

export interface Entry {
  playerId: string;
  rank: number;
  sharedRank: number;
  score: number;
  reachedAt: string;
  player: { displayName: string | null; country: string | null } | null;
}

/** What to show beside a row's rank: its movement since the viewer arrived. */
export type Annotate = (entry: Entry) => { text: string; kind: string; title: string } | null;

const MOVE_MS = 350;
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

export class Rows {
  private readonly rows = new Map<string, HTMLLIElement>();

  constructor(private readonly list: HTMLOListElement, private readonly annotate: Annotate = () => null) {}

  /** Shows `entries` in order; `highlight` marks one player's row. */
  show(entries: readonly Entry[], highlight?: string): void {
    // An update that comes mid-animation starts from the end state of the one before (score
    // flashes, CSS animations, go on).
    for (const animation of this.list.getAnimations({ subtree: true })) if (!(animation instanceof CSSAnimation)) animation.finish();
    for (const ghost of this.list.querySelectorAll('.leaving')) ghost.remove();
    const animate = !reducedMotion.matches && this.rows.size > 0;
    const staying = stayingInOrder(entries, [...this.rows.keys()]);
    const wanted = new Set(entries.map((entry) => entry.playerId));
    for (const [playerId, row] of this.rows) {
      if (staying.has(playerId)) continue;
      if (animate) this.leave(row);
      if (!wanted.has(playerId)) {
        row.remove();
        this.rows.delete(playerId);
      }
    }

    let previous: Element | null = null;
    for (const entry of entries) {
      let row = this.rows.get(entry.playerId);
      const entering = !row || !staying.has(entry.playerId);
      if (!row) {
        row = document.createElement('li');
        row.className = 'row';
        row.dataset.player = entry.playerId;
        this.rows.set(entry.playerId, row);
      }
      const scoreChanged = row.dataset.score !== undefined && row.dataset.score !== String(entry.score);
      fill(row, entry, this.annotate(entry));
      row.classList.toggle('me', entry.playerId === highlight);
      if (scoreChanged) flash(row);
      // Rows that stay are in order already and are not touched; the others go right after the
      // row before them.
      if (entering) {
        this.list.insertBefore(row, previous ? previous.nextElementSibling : this.list.firstElementChild);
        if (animate) grow(row);
      }
      previous = row;
    }
  }

  clear(): void {
    this.show([]);
  }

  /** A copy of the row shrinks away in its place, then is gone. */
  private leave(row: HTMLLIElement): void {
    const ghost = row.cloneNode(true) as HTMLLIElement;
    ghost.classList.add('leaving');
    ghost.removeAttribute('data-player');
    ghost.setAttribute('aria-hidden', 'true');
    row.replaceWith(ghost);
    const height = ghost.getBoundingClientRect().height;
    const shrinking = ghost.animate([{ height: `${height}px`, opacity: 1 }, { height: '0px', opacity: 0 }], { duration: MOVE_MS, easing: 'ease-in-out' });
    shrinking.onfinish = () => ghost.remove();
  }
}

/** The players of `before` that keep their order among themselves: the most of them (a longest increasing run). */
function stayingInOrder(entries: readonly Entry[], before: readonly string[]): Set<string> {
  const oldIndex = new Map(before.map((playerId, i) => [playerId, i]));
  const kept = entries.map((entry) => entry.playerId).filter((playerId) => oldIndex.has(playerId));
  // Patience sorting: tails[k] is the index in `kept` ending the best run of length k + 1.
  const tails: number[] = [];
  const parent: number[] = [];
  kept.forEach((playerId, i) => {
    const value = oldIndex.get(playerId)!;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (oldIndex.get(kept[tails[middle]])! < value) low = middle + 1;
      else high = middle;
    }
    parent[i] = low > 0 ? tails[low - 1] : -1;
    tails[low] = i;
  });
  const staying = new Set<string>();
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = parent[i]) staying.add(kept[i]);
  return staying;
}

function grow(row: HTMLLIElement): void {
  const height = row.getBoundingClientRect().height;
  row.animate([{ height: '0px', opacity: 0 }, { height: `${height}px`, opacity: 1 }], { duration: MOVE_MS, easing: 'ease-in-out' });
}

function fill(row: HTMLLIElement, entry: Entry, movement: ReturnType<Annotate>): void {
  row.dataset.rank = String(entry.rank);
  row.dataset.score = String(entry.score);
  const rank = span('rank', String(entry.rank));
  if (entry.sharedRank !== entry.rank) rank.append(span('shared', `=${entry.sharedRank}`, `tied: shared rank ${entry.sharedRank}`));
  const move = span('move', movement?.text ?? '', movement?.title);
  if (movement) move.dataset.kind = movement.kind;
  const name = span('name', entry.player?.displayName ?? entry.playerId);
  if (entry.player?.displayName) name.append(span('id', entry.playerId));
  if (entry.player?.country) name.append(span('country', entry.player.country));
  const reached = new Date(entry.reachedAt);
  const cells = document.createElement('div');
  cells.className = 'cells';
  cells.append(rank, move, name, span('score', entry.score.toLocaleString()), span('reached', when(reached), `reached ${entry.reachedAt}`));
  row.replaceChildren(cells);
}

export function span(className: string, text: string, title?: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  if (title) element.title = title;
  return element;
}

/** Today's moments as a time of day, older ones as a date. */
export function when(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : date.toLocaleDateString();
}

function flash(row: HTMLLIElement): void {
  row.classList.remove('changed');
  // Restarts the animation on a row that changed again while it was still flashing.
  void row.offsetWidth;
  row.classList.add('changed');
}
