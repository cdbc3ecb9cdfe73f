// WCAG contrast measured in the page: every element that shows text of its own, its text colour
// against the background it is drawn on (its own and its ancestors' backgrounds composited, over
// the canvas), as the browser computed them. No dependency: the formula is WCAG 2's.
import type { Page } from 'playwright-core';

/** WCAG AA for text. */
export const AA_TEXT = 4.5;

export interface LowContrast {
  text: string;
  ratio: number;
  color: string;
  background: string;
}

/** The text elements of `page` whose contrast is under `minimum`, as the page shows them now. */
export function lowContrast(page: Page, minimum = AA_TEXT): Promise<LowContrast[]> {
  return page.evaluate((min) => {
    type Rgba = [number, number, number, number];
    interface Styled {
      color: string;
      backgroundColor: string;
      opacity: string;
      visibility: string;
      display: string;
    }
    interface Node {
      nodeType: number;
      textContent: string | null;
    }
    interface Element extends Node {
      querySelectorAll(selector: string): Iterable<Element>;
      parentElement: Element | null;
      childNodes: Iterable<Node>;
      getBoundingClientRect(): { width: number; height: number };
    }
    const page = globalThis as unknown as {
      document: { body: Element };
      getComputedStyle(element: Element): Styled;
      matchMedia(query: string): { matches: boolean };
    };

    // Computed colours come as rgb()/rgba(), or color(srgb r g b / a) for color-mix().
    const parse = (value: string): Rgba => {
      const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(value);
      if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
      const rgb = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+))?\)$/.exec(value);
      if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
      throw new Error(`unreadable colour ${value}`);
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3] + below[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i] * top[3] + below[i] * below[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    // The canvas under a transparent root: the browser's own, white or (dark scheme) black-ish.
    const canvas: Rgba = page.matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18, 1] : [255, 255, 255, 1];
    const backgroundOf = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let at: Element | null = element; at; at = at.parentElement) layers.push(parse(page.getComputedStyle(at).backgroundColor));
      return layers.reduceRight((below, layer) => over(layer, below), canvas);
    };
    const opacityOf = (element: Element): number => {
      let opacity = 1;
      for (let at: Element | null = element; at; at = at.parentElement) opacity *= Number(page.getComputedStyle(at).opacity);
      return opacity;
    };

    const found: { text: string; ratio: number; color: string; background: string }[] = [];
    for (const element of page.document.body.querySelectorAll('*')) {
      const own = [...element.childNodes].filter((node) => node.nodeType === 3 && node.textContent!.trim() !== '');
      if (own.length === 0) continue;
      const style = page.getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || style.visibility !== 'visible' || opacityOf(element) === 0) continue;
      const background = backgroundOf(element);
      const color = over(parse(style.color), background);
      const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a);
      const ratio = (light + 0.05) / (dark + 0.05);
      if (ratio < min) {
        found.push({
          text: own.map((node) => node.textContent!.trim()).join(' '),
          ratio: Math.round(ratio * 100) / 100,
          color: style.color,
          background: `rgb(${background.slice(0, 3).map(Math.round).join(', ')})`,
        });
      }
    }
    return found;
  }, minimum);
}
