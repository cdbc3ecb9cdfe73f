// A list of entries kept in place: rows are matched by player, so an update moves, adds and
// removes rows instead of redrawing the list, and a row that moved slides from where it was (FLIP).

export interface Entry {
  playerId: string;
  rank: number;
  sharedRank: number;
  score: number;
  reachedAt: string;
  player: { displayName: string | null; country: string | null } | null;
}

const MOVE_MS = 350;
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

export class Rows {
  private readonly rows = new Map<string, HTMLLIElement>();

  constructor(private readonly list: HTMLOListElement) {}

  /** Shows `entries` in order; `highlight` marks one player's row. */
  show(entries: readonly Entry[], highlight?: string): void {
    const before = new Map<HTMLLIElement, number>();
    for (const row of this.rows.values()) before.set(row, row.getBoundingClientRect().top);

    const keep = new Set<string>();
    entries.forEach((entry, i) => {
      keep.add(entry.playerId);
      let row = this.rows.get(entry.playerId);
      if (!row) {
        row = document.createElement('li');
        row.className = 'row';
        row.dataset.player = entry.playerId;
        this.rows.set(entry.playerId, row);
      }
      const scoreChanged = row.dataset.score !== undefined && row.dataset.score !== String(entry.score);
      fill(row, entry);
      row.classList.toggle('me', entry.playerId === highlight);
      if (scoreChanged) flash(row);
      // insertBefore moves a row already in the list; a row already in its place is left alone.
      if (this.list.children[i] !== row) this.list.insertBefore(row, this.list.children[i] ?? null);
    });
    for (const [playerId, row] of this.rows) {
      if (!keep.has(playerId)) {
        row.remove();
        this.rows.delete(playerId);
      }
    }

    if (reducedMotion.matches) return;
    for (const [row, top] of before) {
      if (!row.isConnected) continue;
      const moved = top - row.getBoundingClientRect().top;
      if (moved !== 0) row.animate([{ transform: `translateY(${moved}px)` }, { transform: 'none' }], { duration: MOVE_MS, easing: 'ease-out' });
    }
  }

  clear(): void {
    this.show([]);
  }
}

function fill(row: HTMLLIElement, entry: Entry): void {
  row.dataset.rank = String(entry.rank);
  row.dataset.score = String(entry.score);
  const rank = span('rank', String(entry.rank));
  if (entry.sharedRank !== entry.rank) rank.append(span('shared', `=${entry.sharedRank}`, `tied: shared rank ${entry.sharedRank}`));
  const name = span('name', entry.player?.displayName ?? entry.playerId);
  if (entry.player?.displayName) name.append(span('id', entry.playerId));
  if (entry.player?.country) name.append(span('country', entry.player.country));
  const reached = new Date(entry.reachedAt);
  row.replaceChildren(rank, name, span('score', entry.score.toLocaleString()), span('reached', when(reached), `reached ${entry.reachedAt}`));
}

function span(className: string, text: string, title?: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  if (title) element.title = title;
  return element;
}

/** Today's moments as a time of day, older ones as a date. */
function when(date: Date): string {
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
