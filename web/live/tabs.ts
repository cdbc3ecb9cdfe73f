// The period tabs: one per kind the board keeps (a season each), as links that carry the choice
// in the URL (`?period=DAILY`, `&key=` for a season), so a reload or a shared link shows the same.
// A click switches in place: the URL is replaced and the page follows the other period.
import type { PeriodChoice } from './states';

const LABELS: Record<string, string> = { ALL_TIME: 'All time', HOURLY: 'This hour', DAILY: 'Today', WEEKLY: 'This week', MONTHLY: 'This month', YEARLY: 'This year', CYCLE: 'This round' };

/** The period the URL asks for; null: the board's default one. */
export function choiceFromUrl(search: URLSearchParams): PeriodChoice | null {
  const kind = search.get('period')?.toUpperCase();
  if (!kind) return null;
  const key = search.get('key');
  return key ? { kind, key } : { kind };
}

/** The kinds the board keeps, in its order, and each kept season by its key. */
export function tabsOf(periods: readonly { kind: string; key: string }[]): PeriodChoice[] {
  const tabs: PeriodChoice[] = [];
  for (const { kind, key } of periods) {
    if (kind === 'SEASON') tabs.push({ kind, key });
    else if (!tabs.some((tab) => tab.kind === kind)) tabs.push({ kind });
  }
  return tabs;
}

export class PeriodTabs {
  private tabs: { choice: PeriodChoice; link: HTMLAnchorElement }[] = [];
  /** The period shown, marked again when the tabs come after it. */
  private shown: { kind: string; key: string } | null = null;

  constructor(private readonly nav: HTMLElement, private readonly select: (choice: PeriodChoice) => void) {}

  show(choices: readonly PeriodChoice[]): void {
    this.tabs = choices.map((choice) => {
      const link = document.createElement('a');
      link.href = hrefFor(choice);
      link.textContent = choice.kind === 'SEASON' ? `Season ${choice.key}` : (LABELS[choice.kind] ?? choice.kind);
      link.dataset.kind = choice.kind;
      if (choice.key) link.dataset.key = choice.key;
      link.addEventListener('click', (event) => {
        event.preventDefault();
        history.replaceState(null, '', link.href);
        this.select(choice);
      });
      return { choice, link };
    });
    this.nav.replaceChildren(...this.tabs.map(({ link }) => link));
    // One period only: nothing to switch between.
    this.nav.hidden = this.tabs.length < 2;
    this.mark(this.shown);
  }

  /** Marks the tab of the period shown (a season's by its key, another kind's by its kind). */
  mark(shown: { kind: string; key: string } | null): void {
    this.shown = shown;
    for (const { choice, link } of this.tabs) {
      const current = shown !== null && choice.kind === shown.kind && (choice.key === undefined || choice.key === shown.key);
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  }
}

function hrefFor(choice: PeriodChoice): string {
  const search = new URLSearchParams(location.search);
  search.set('period', choice.kind);
  if (choice.key) search.set('key', choice.key);
  else search.delete('key');
  return `${location.pathname}?${search}`;
}
