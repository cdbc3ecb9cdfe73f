// The latest submissions, newest first, as entrySubmitted sends them: a short ticker under the top.
import { movement } from './movement';
import { type Entry, span, when } from './rows';

export interface Submission {
  entry: Entry;
  previousScore: number | null;
  previousRank: number | null;
}

const SHOWN = 5;

export class Ticker {
  constructor(private readonly list: HTMLOListElement) {}

  add({ entry, previousRank }: Submission): void {
    const item = document.createElement('li');
    item.className = 'tick';
    item.dataset.player = entry.playerId;
    const moved = previousRank === null ? { text: 'new', kind: 'new', title: 'first score on the board' } : movement(previousRank - entry.rank, 'with this score');
    const move = span('move', moved?.text ?? '', moved?.title);
    if (moved) move.dataset.kind = moved.kind;
    item.append(
      span('name', entry.player?.displayName ?? entry.playerId),
      span('score', entry.score.toLocaleString()),
      span('rank', `#${entry.rank}`),
      move,
      span('reached', when(new Date(entry.reachedAt))),
    );
    this.list.prepend(item);
    while (this.list.children.length > SHOWN) this.list.lastElementChild!.remove();
    this.section.hidden = false;
  }

  clear(): void {
    this.list.replaceChildren();
    this.section.hidden = true;
  }

  /** The ticker's section: shown once there is something in it. */
  private get section(): HTMLElement {
    return this.list.closest('section')!;
  }
}
