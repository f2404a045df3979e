/**
 * `npm run data:register-scale-logos -- --marks N --out DIR [--seed S]`: a logo batch the size of a register's
 * design marks, made up, so that logo search can be measured against a crowd of near neighbours.
 *
 * Input: how many marks, the seed, the words of /usr/share/dict/words, the system fonts (DejaVu), the training logos
 * of render-logos.ts (the brands the embedder was trained on; never a validation or test brand, so no design here
 * is a variant of a brand eval:logos asks about).
 * Output, in DIR: one SVG per mark (images/<thousand>/<serial>.svg), the logo manifest logos.jsonl and the mark
 * records marks.jsonl (data/FORMATS.md: `npm run ingest -- marks-jsonl DIR/marks.jsonl`, then
 * `npm run ingest -- logos DIR/logos.jsonl`), and progress.json.
 *
 *  1. Mark i is drawn from a generator seeded by (seed, i) alone: the same seed gives the same corpus, and the first
 *     N marks of a larger corpus are the corpus of N marks.
 *  2. Its kind is drawn by KIND_SHARES: a dictionary word set as a wordmark, a coined word set as a wordmark (both in
 *     a family, weight and slant of the system fonts, filled or outlined, straight or on an arc, bare or inside a
 *     shape, about a third with a symbol beside or above), a geometric or abstract symbol alone, or a near-duplicate
 *     of a training logo (recoloured, re-arranged beside its name or in a badge, or with a letter of its name
 *     changed) so that close neighbours exist, as they do in a real register.
 *  3. Marks are written a chunk at a time (images first, then their manifest and record lines, then progress.json):
 *     nothing holds more than a chunk. A run stopped part way resumes from progress.json (the lines past the last
 *     recorded chunk are cut off and written again); a larger --marks extends a finished corpus.
 */
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { drawFrom, seededRandom, type Draw } from '../synthetic-uspto/random';

export type DesignKind = 'dictionary wordmark' | 'coined wordmark' | 'symbol' | 'near-duplicate';

/** The share of each kind, drawn for every mark. */
export const KIND_SHARES: readonly (readonly [DesignKind, number])[] = [
  ['dictionary wordmark', 0.4],
  ['coined wordmark', 0.25],
  ['symbol', 0.2],
  ['near-duplicate', 0.15],
];

export interface ScaleDesign {
  serial: string;
  /** The mark's text, "" for a design-only mark. */
  mark: string;
  kind: DesignKind;
  /** How it was drawn, in a few words (for reading a corpus, not for search). */
  style: string;
  nice: number[];
  svg: string;
  /** For a near-duplicate, the training brand it varies. */
  variantOf?: string;
}

export interface TrainingLogo {
  brand: string;
  title: string;
  svg: string;
}

export interface DesignSources {
  words: readonly string[];
  trainingLogos: readonly TrainingLogo[];
}

export const FORMAT = 'register-scale-logos/1';
const DEFAULT_CHUNK = 1000;

/** Families of the system fonts (fc-list), with the weights that each has. */
const FONTS: readonly { family: string; weights: readonly string[] }[] = [
  { family: 'DejaVu Sans', weights: ['normal', 'bold', '200'] },
  { family: 'DejaVu Serif', weights: ['normal', 'bold'] },
  { family: 'DejaVu Sans Mono', weights: ['normal', 'bold'] },
  { family: 'DejaVu Sans Condensed', weights: ['normal', 'bold'] },
];

/** Classes drawn more often, as the register files more marks in them (clothing, electronics, services). */
const COMMON_CLASSES = [9, 25, 35, 42, 41, 3, 28, 30, 21, 5, 18, 14, 11, 20, 16];

const SYLLABLE_ONSETS = ['b', 'br', 'c', 'ch', 'cr', 'd', 'f', 'fl', 'g', 'gr', 'h', 'j', 'k', 'kl', 'l', 'm', 'n'];
const MORE_ONSETS = ['p', 'pr', 'qu', 'r', 's', 'sh', 'sk', 'sp', 'st', 't', 'tr', 'v', 'w', 'x', 'z', 'zh', ''];
const ONSETS = [...SYLLABLE_ONSETS, ...MORE_ONSETS];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'oo', 'y', 'ou', 'ae'];
const CODAS = ['', '', '', 'n', 'x', 'r', 'l', 'm', 'k', 'st', 'th', 'nd', 's', 'z', 'q'];
const SUFFIXES = ['ify', 'ly', 'io', 'ex', 'ora', 'ix', 'go', 'zen', 'ster', 'nova', 'labs', 'hub', 'wave'];

/** 32-bit mix of (seed, i): each mark's own generator, so mark i never depends on the marks before it. */
function markSeed(seed: number, i: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export function serialOf(i: number): string {
  return `RSL-${String(i + 1).padStart(8, '0')}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function colour(d: Draw): string {
  // Mostly dark or saturated, as marks are drawn; now and then a grey.
  if (d.chance(0.25)) {
    const shade = d.int(0, 90);
    return `rgb(${shade},${shade},${shade})`;
  }
  return `hsl(${d.int(0, 359)},${d.int(45, 95)}%,${d.int(22, 50)}%)`;
}

function niceClasses(d: Draw): number[] {
  const count = d.chance(0.6) ? 1 : d.chance(0.6) ? 2 : 3;
  const classes = new Set<number>();
  while (classes.size < count) classes.add(d.chance(0.7) ? d.pick(COMMON_CLASSES) : d.int(1, 45));
  return [...classes].sort((a, b) => a - b);
}

function coinedWord(d: Draw, words: readonly string[]): string {
  const how = d.random();
  if (how < 0.5) {
    const syllables = d.int(2, 3);
    let word = '';
    for (let s = 0; s < syllables; s++)
      word += d.pick(ONSETS) + d.pick(NUCLEI) + (s === syllables - 1 ? d.pick(CODAS) : '');
    return word;
  }
  if (how < 0.8 && words.length > 1) {
    // A blend: the start of one word and the end of another ("bright" + "ocean" -> "brightean").
    const a = d.pick(words);
    const b = d.pick(words);
    return a.slice(0, Math.max(2, Math.ceil(a.length * 0.6))) + b.slice(Math.floor(b.length * 0.5));
  }
  return (words.length > 0 ? d.pick(words).slice(0, d.int(3, 6)) : d.pick(ONSETS) + d.pick(NUCLEI)) + d.pick(SUFFIXES);
}

function cased(d: Draw, word: string): string {
  const how = d.random();
  if (how < 0.35) return word.toUpperCase();
  if (how < 0.7) return word.charAt(0).toUpperCase() + word.slice(1);
  return word.toLowerCase();
}

function polygonPoints(cx: number, cy: number, r: number, sides: number, turn: number, inner?: number): string {
  const points: string[] = [];
  const steps = inner === undefined ? sides : sides * 2;
  for (let k = 0; k < steps; k++) {
    const radius = inner !== undefined && k % 2 === 1 ? r * inner : r;
    const angle = turn + (k * 2 * Math.PI) / steps - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(' ');
}

/** One primitive of a symbol, centred on (cx, cy) within radius r. */
function primitive(d: Draw, cx: number, cy: number, r: number, fill: string): { name: string; svg: string } {
  const turn = d.random() * Math.PI;
  const which = d.int(0, 11);
  switch (which) {
    case 0:
      return { name: 'disc', svg: `<circle cx="${cx}" cy="${cy}" r="${r.toFixed(1)}" fill="${fill}"/>` };
    case 1:
      return {
        name: 'ring',
        svg: `<circle cx="${cx}" cy="${cy}" r="${(r * 0.85).toFixed(1)}" fill="none" stroke="${fill}" stroke-width="${(r * d.int(10, 30)) / 100}"/>`,
      };
    case 2: {
      const sides = d.int(3, 8);
      return {
        name: `${sides}-gon`,
        svg: `<polygon points="${polygonPoints(cx, cy, r, sides, turn)}" fill="${fill}"/>`,
      };
    }
    case 3: {
      const points = d.int(4, 9);
      const inner = 0.3 + d.random() * 0.35;
      return {
        name: `${points}-point star`,
        svg: `<polygon points="${polygonPoints(cx, cy, r, points, turn, inner)}" fill="${fill}"/>`,
      };
    }
    case 4: {
      const side = r * 1.5;
      const corner = (side * d.int(0, 30)) / 100;
      return {
        name: 'square',
        svg: `<rect x="${cx - side / 2}" y="${cy - side / 2}" width="${side}" height="${side}" rx="${corner.toFixed(1)}" fill="${fill}" transform="rotate(${((turn * 180) / Math.PI).toFixed(0)} ${cx} ${cy})"/>`,
      };
    }
    case 5: {
      const petals = d.int(3, 9);
      const length = r * (0.45 + d.random() * 0.2);
      const width = length * (0.25 + d.random() * 0.3);
      const parts = Array.from({ length: petals }, (_, k) => {
        const angle = (turn * 180) / Math.PI + (k * 360) / petals;
        return `<ellipse cx="${cx}" cy="${(cy - length).toFixed(1)}" rx="${width.toFixed(1)}" ry="${length.toFixed(1)}" transform="rotate(${angle.toFixed(1)} ${cx} ${cy})"/>`;
      });
      return { name: `${petals} petals`, svg: `<g fill="${fill}">${parts.join('')}</g>` };
    }
    default:
      return patternPrimitive(d, which, cx, cy, r, fill);
  }
}

/** The primitives made of repeated parts (bars, rings, dots, chevrons) and the open strokes. */
function patternPrimitive(
  d: Draw,
  which: number,
  cx: number,
  cy: number,
  r: number,
  fill: string,
): { name: string; svg: string } {
  switch (which) {
    case 6: {
      const bars = d.int(3, 6);
      const height = (r * 2) / (bars * 2 - 1);
      const parts = Array.from(
        { length: bars },
        (_, k) =>
          `<rect x="${cx - r}" y="${(cy - r + k * 2 * height).toFixed(1)}" width="${(r * 2 * (1 - (d.chance(0.5) ? k * 0.12 : 0))).toFixed(1)}" height="${height.toFixed(1)}" rx="${(height / 2).toFixed(1)}"/>`,
      );
      return {
        name: `${bars} bars`,
        svg: `<g fill="${fill}" transform="rotate(${d.pick([0, 0, 45, -30, 90])} ${cx} ${cy})">${parts.join('')}</g>`,
      };
    }
    case 7:
      return {
        name: 'crescent',
        svg: `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/><circle cx="${(cx + r * (0.3 + d.random() * 0.3)).toFixed(1)}" cy="${(cy - r * 0.2).toFixed(1)}" r="${(r * 0.85).toFixed(1)}" fill="#ffffff"/>`,
      };
    case 8: {
      const rings = d.int(2, 4);
      const width = r / (rings * 2);
      const parts = Array.from(
        { length: rings },
        (_, k) => `<circle cx="${cx}" cy="${cy}" r="${(r - width * (2 * k + 0.5)).toFixed(1)}"/>`,
      );
      return {
        name: `${rings} rings`,
        svg: `<g fill="none" stroke="${fill}" stroke-width="${width.toFixed(1)}">${parts.join('')}</g>`,
      };
    }
    case 9: {
      const w = r * 0.35;
      const path = `M${cx - r},${cy + r * 0.5} Q${cx},${cy - r * (0.6 + d.random())} ${cx + r},${cy + r * (d.random() - 0.3)}`;
      return {
        name: 'swoosh',
        svg: `<path d="${path}" fill="none" stroke="${fill}" stroke-width="${w.toFixed(1)}" stroke-linecap="round"/>`,
      };
    }
    case 10: {
      const n = d.int(2, 4);
      const step = (r * 2) / n;
      const dots: string[] = [];
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++)
          if (d.chance(0.8))
            dots.push(
              `<circle cx="${(cx - r + step * (a + 0.5)).toFixed(1)}" cy="${(cy - r + step * (b + 0.5)).toFixed(1)}" r="${(step * 0.38).toFixed(1)}"/>`,
            );
      return { name: 'dot grid', svg: `<g fill="${fill}">${dots.join('')}</g>` };
    }
    default: {
      const chevrons = d.int(1, 3);
      const parts = Array.from({ length: chevrons }, (_, k) => {
        const y = cy - r * 0.5 + k * r * 0.5;
        return `<polyline points="${cx - r},${(y + r * 0.4).toFixed(1)} ${cx},${y.toFixed(1)} ${cx + r},${(y + r * 0.4).toFixed(1)}"/>`;
      });
      return {
        name: `${chevrons} chevrons`,
        svg: `<g fill="none" stroke="${fill}" stroke-width="${(r * 0.22).toFixed(1)}" stroke-linejoin="round">${parts.join('')}</g>`,
      };
    }
  }
}

/** A symbol of one to three primitives layered (the later ones smaller), or a monogram in a shape. */
function symbol(d: Draw, cx: number, cy: number, r: number, words: readonly string[]): { name: string; svg: string } {
  if (d.chance(0.15)) {
    const letter = (words.length > 0 ? d.pick(words).charAt(0) : 'a').toUpperCase();
    const back = primitive(d, cx, cy, r, colour(d));
    const font = d.pick(FONTS);
    return {
      name: `monogram ${letter} on ${back.name}`,
      svg: `${back.svg}<text x="${cx}" y="${(cy + r * 0.35).toFixed(1)}" text-anchor="middle" font-family="${font.family}" font-weight="bold" font-size="${(r * 1.05).toFixed(0)}" fill="#ffffff" stroke="${colour(d)}" stroke-width="1">${escapeXml(letter)}</text>`,
    };
  }
  const layers = d.chance(0.4) ? 1 : d.chance(0.6) ? 2 : 3;
  const parts: { name: string; svg: string }[] = [];
  for (let k = 0; k < layers; k++) {
    const scale = k === 0 ? 1 : 0.35 + d.random() * 0.4;
    const dx = k === 0 ? 0 : (d.random() - 0.5) * r * 0.6;
    const dy = k === 0 ? 0 : (d.random() - 0.5) * r * 0.6;
    parts.push(
      primitive(d, Math.round(cx + dx), Math.round(cy + dy), r * scale, k > 0 && d.chance(0.4) ? '#ffffff' : colour(d)),
    );
  }
  return { name: parts.map((p) => p.name).join(' + '), svg: parts.map((p) => p.svg).join('') };
}

interface Lettering {
  text: string;
  font: string;
  weight: string;
  italic: boolean;
  outline: boolean;
  spacing: number;
  fill: string;
}

function lettering(d: Draw, text: string): Lettering {
  const font = d.pick(FONTS);
  return {
    text,
    font: font.family,
    weight: d.pick(font.weights),
    italic: d.chance(0.25),
    outline: d.chance(0.15),
    spacing: d.chance(0.3) ? d.int(1, 8) : 0,
    fill: colour(d),
  };
}

function textAttributes(l: Lettering, size: number): string {
  const paint = l.outline
    ? `fill="none" stroke="${l.fill}" stroke-width="${Math.max(1, size / 28).toFixed(1)}"`
    : `fill="${l.fill}"`;
  return (
    `font-family="${l.font}" font-weight="${l.weight}"${l.italic ? ' font-style="italic"' : ''} font-size="${size}"` +
    `${l.spacing ? ` letter-spacing="${l.spacing}"` : ''} ${paint}`
  );
}

function describe(l: Lettering): string {
  return [l.font, l.weight === 'normal' ? '' : l.weight, l.italic ? 'italic' : '', l.outline ? 'outline' : '']
    .filter(Boolean)
    .join(' ');
}

/** Approximate advance of the text (DejaVu's glyphs are about 0.62 em wide, mono 0.6), for the canvas. */
function textWidth(l: Lettering, size: number): number {
  return l.text.length * (size * 0.64 + l.spacing);
}

/** A wordmark: the lettering straight, on an arc or inside a shape, with or without a symbol. */
function wordmark(d: Draw, text: string, words: readonly string[]): { style: string; svg: string } {
  const l = lettering(d, text);
  const size = 48;
  const width = Math.max(60, Math.ceil(textWidth(l, size)));
  const layout = d.random();
  const withSymbol = d.chance(0.35);
  const styleParts = [describe(l)];
  let body: string;
  let w: number;
  let h: number;
  if (layout < 0.2 && text.length >= 3) {
    // On an arc: each letter placed and turned along a circle.
    const radius = Math.max(60, (width / Math.PI) * (0.9 + d.random() * 0.8));
    const span = Math.min(Math.PI * 1.2, width / radius);
    w = Math.ceil(radius * 2 + size * 2);
    h = Math.ceil(radius + size * 2);
    const cx = w / 2;
    const cy = radius + size * 1.2;
    const letters = [...text].map((c, k) => {
      const angle = -Math.PI / 2 - span / 2 + (span * (k + 0.5)) / text.length;
      const x = cx + radius * Math.cos(angle);
      const y = cy + radius * Math.sin(angle);
      const degrees = (angle * 180) / Math.PI + 90;
      return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="middle" transform="rotate(${degrees.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})" ${textAttributes({ ...l, spacing: 0 }, size)}>${escapeXml(c)}</text>`;
    });
    body = letters.join('');
    styleParts.push('on an arc');
    if (withSymbol) {
      const s = symbol(d, Math.round(cx), Math.round(cy), Math.round(radius * 0.55), words);
      body += s.svg;
      styleParts.push(`with ${s.name}`);
    }
  } else if (layout < 0.45) {
    // Inside a shape: filled with the lettering reversed out, or outlined around it.
    const shape = d.pick(['circle', 'rounded box', 'box', 'hexagon', 'ellipse', 'shield']);
    const filled = d.chance(0.6);
    const frame = colour(d);
    const pad = size * 0.6;
    w = width + pad * 2 + 20;
    h = shape === 'circle' ? w : size * 2.4;
    const cx = w / 2;
    const cy = h / 2;
    const paint = filled ? `fill="${frame}"` : `fill="none" stroke="${frame}" stroke-width="${d.int(3, 7)}"`;
    const outline =
      shape === 'circle'
        ? `<circle cx="${cx}" cy="${cy}" r="${(w / 2 - 6).toFixed(1)}" ${paint}/>`
        : shape === 'ellipse'
          ? `<ellipse cx="${cx}" cy="${cy}" rx="${(w / 2 - 6).toFixed(1)}" ry="${(h / 2 - 6).toFixed(1)}" ${paint}/>`
          : shape === 'hexagon'
            ? `<polygon points="6,${cy} ${h / 2},6 ${w - h / 2},6 ${w - 6},${cy} ${w - h / 2},${h - 6} ${h / 2},${h - 6}" ${paint}/>`
            : shape === 'shield'
              ? `<path d="M6,6 H${w - 6} V${(h * 0.55).toFixed(1)} Q${w - 6},${h - 6} ${cx},${h - 4} Q6,${h - 6} 6,${(h * 0.55).toFixed(1)} Z" ${paint}/>`
              : `<rect x="6" y="6" width="${w - 12}" height="${h - 12}" rx="${shape === 'box' ? 0 : (h / 4).toFixed(1)}" ${paint}/>`;
    const inner = filled ? { ...l, fill: '#ffffff', outline: false } : l;
    body = `${outline}<text x="${cx}" y="${(cy + size * 0.35).toFixed(1)}" text-anchor="middle" ${textAttributes(inner, size)}>${escapeXml(text)}</text>`;
    styleParts.push(`inside a ${filled ? 'filled' : 'outlined'} ${shape}`);
    if (withSymbol) {
      const s = symbol(d, Math.round(cx), Math.round(size), Math.round(size * 0.9), words);
      body = `${s.svg}<g transform="translate(0 ${size * 2})">${body}</g>`;
      h += size * 2;
      styleParts.push(`with ${s.name} above`);
    }
  } else {
    // Straight, the symbol (if any) to the left or above.
    const symbolAbove = d.chance(0.4);
    const r = Math.round(size * 0.7);
    const left = withSymbol && !symbolAbove ? r * 2 + 24 : 10;
    const top = withSymbol && symbolAbove ? r * 2 + 16 : 0;
    w = Math.max(width + left + 20, withSymbol ? r * 2 + 20 : 0);
    h = top + size * 1.5;
    const textX = withSymbol && symbolAbove ? w / 2 : left;
    body = `<text x="${textX}" y="${top + size * 1.1}"${withSymbol && symbolAbove ? ' text-anchor="middle"' : ''} ${textAttributes(l, size)}>${escapeXml(text)}</text>`;
    if (withSymbol) {
      const s = symbolAbove
        ? symbol(d, Math.round(w / 2), r + 6, r, words)
        : symbol(d, r + 8, Math.round(h / 2), r, words);
      body = s.svg + body;
      styleParts.push(`with ${s.name} ${symbolAbove ? 'above' : 'beside'}`);
    }
    if (d.chance(0.15)) {
      body += `<rect x="${textX === w / 2 ? w / 2 - width / 2 : left}" y="${top + size * 1.25}" width="${width}" height="${(size / 12).toFixed(1)}" fill="${l.fill}"/>`;
      styleParts.push('underlined');
    }
  }
  return {
    style: styleParts.join(', '),
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(w)}" height="${Math.ceil(h)}" viewBox="0 0 ${Math.ceil(w)} ${Math.ceil(h)}">${body}</svg>`,
  };
}

/** The training logo's SVG as an element placed at (x, y), w x h, inside another SVG. */
export function nestedSvg(svg: string, x: number, y: number, w: number, h: number, transform = ''): string {
  const clean = svg
    .replace(/<\?xml[^>]*\?>/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[^\]]*\])?\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  const open = /<svg\b[^>]*>/i.exec(clean);
  if (!open) throw new Error('not an SVG');
  let tag = open[0];
  const size = (name: string) => {
    const m = new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(tag);
    return m ? Number(m[1]) : undefined;
  };
  const viewBox = /\sviewBox="[^"]*"/.test(tag) ? '' : ` viewBox="0 0 ${size('width') ?? 24} ${size('height') ?? 24}"`;
  tag = tag
    .replace(/\s(x|y|width|height)="[^"]*"/g, '')
    .replace(/^<svg/i, `<svg x="${x}" y="${y}" width="${w}" height="${h}"${viewBox}`);
  const element = tag + clean.slice(open.index + open[0].length);
  return transform ? `<g transform="${transform}">${element}</g>` : element;
}

/** Every colour of the SVG turned by the same hue (and the root fill of a one-colour icon replaced). */
export function recoloured(svg: string, d: Draw): string {
  const turn = d.int(60, 300);
  const swap = (hex: string): string => {
    const full = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
    const [r, g, b] = [0, 2, 4].map((k) => Number.parseInt(full.slice(k, k + 2), 16) / 255) as [number, number, number];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const light = (max + min) / 2;
    if (max - min < 0.08) return `hsl(${(turn + 200) % 360},70%,${Math.round(Math.min(0.45, light) * 100)}%)`;
    const delta = max - min;
    const hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
    const sat = delta / (1 - Math.abs(2 * light - 1));
    return `hsl(${Math.round((hue * 60 + 360 + turn) % 360)},${Math.round(sat * 100)}%,${Math.round(light * 100)}%)`;
  };
  return svg.replace(/#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b/g, (hex) => swap(hex));
}

function changeALetter(d: Draw, name: string): string {
  const letters = [...name];
  const positions = letters.map((c, k) => (/[a-z]/i.test(c) ? k : -1)).filter((k) => k >= 0);
  if (positions.length === 0) return `${name}${d.pick(['x', 'o', 'a'])}`;
  const at = d.pick(positions);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  let next = d.pick([...alphabet]);
  if (next === letters[at]!.toLowerCase()) next = alphabet[(alphabet.indexOf(next) + 1) % 26]!;
  letters[at] = letters[at] === letters[at]!.toUpperCase() ? next.toUpperCase() : next;
  return letters.join('');
}

/** A training logo varied: recoloured, re-arranged (beside its name, in a badge, mirrored), or its name misspelt. */
function nearDuplicate(d: Draw, logo: TrainingLogo): { style: string; svg: string; mark: string } {
  const how = d.random();
  const frame = (w: number, h: number, body: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
  if (how < 0.35) {
    return {
      style: 'recoloured',
      svg: frame(200, 200, nestedSvg(recoloured(logo.svg, d), 0, 0, 200, 200)),
      mark: '',
    };
  }
  const name = how < 0.7 ? logo.title : changeALetter(d, logo.title);
  const icon = d.chance(0.3) ? recoloured(logo.svg, d) : logo.svg;
  const l = lettering(d, name.length > 24 ? name.slice(0, 24) : name);
  const size = 48;
  const textW = Math.ceil(textWidth(l, size));
  const arrangement = d.int(0, 3);
  if (arrangement === 0) {
    // The logo beside its name.
    const w = 130 + textW;
    return {
      style: `${how < 0.7 ? 're-arranged' : 'a letter changed'}: beside the name, ${describe(l)}`,
      svg: frame(
        w,
        120,
        `${nestedSvg(icon, 10, 10, 100, 100)}<text x="125" y="78" ${textAttributes(l, size)}>${escapeXml(l.text)}</text>`,
      ),
      mark: name,
    };
  }
  if (arrangement === 1) {
    // The logo above its name.
    const w = Math.max(160, textW + 20);
    return {
      style: `${how < 0.7 ? 're-arranged' : 'a letter changed'}: above the name, ${describe(l)}`,
      svg: frame(
        w,
        220,
        `${nestedSvg(icon, w / 2 - 70, 6, 140, 140)}<text x="${w / 2}" y="200" text-anchor="middle" ${textAttributes(l, size)}>${escapeXml(l.text)}</text>`,
      ),
      mark: name,
    };
  }
  if (arrangement === 2) {
    // The logo in a badge (a ring or a rounded box), mirrored half the time.
    const mirrored = d.chance(0.5);
    const ring = d.chance(0.5);
    const c = colour(d);
    const badge = ring
      ? `<circle cx="120" cy="120" r="110" fill="none" stroke="${c}" stroke-width="${d.int(6, 14)}"/>`
      : `<rect x="8" y="8" width="224" height="224" rx="${d.int(0, 50)}" fill="none" stroke="${c}" stroke-width="${d.int(6, 14)}"/>`;
    return {
      style: `${how < 0.7 ? 're-arranged' : 'a letter changed'}: in a ${ring ? 'ring' : 'box'}${mirrored ? ', mirrored' : ''}`,
      svg: frame(
        240,
        240,
        `${badge}${nestedSvg(icon, 55, 55, 130, 130, mirrored ? 'translate(240 0) scale(-1 1)' : '')}`,
      ),
      mark: how < 0.7 ? '' : name,
    };
  }
  // Two copies or the logo with a symbol of its own: a composite that shares the logo.
  const s = symbol(d, 60, 60, 50, [logo.title]);
  return {
    style: `${how < 0.7 ? 're-arranged' : 'a letter changed'}: with ${s.name}, name below, ${describe(l)}`,
    svg: frame(
      Math.max(250, textW + 20),
      190,
      `${s.svg}${nestedSvg(icon, 125, 10, 100, 100)}<text x="10" y="170" ${textAttributes(l, size)}>${escapeXml(l.text)}</text>`,
    ),
    mark: name,
  };
}

/** Mark i of the corpus of `seed`: a pure function of (seed, i) and the sources. */
export function designAt(seed: number, i: number, sources: DesignSources): ScaleDesign {
  const d = drawFrom(seededRandom(markSeed(seed, i)));
  const roll = d.random();
  let kind: DesignKind = KIND_SHARES[KIND_SHARES.length - 1]![0];
  let sum = 0;
  for (const [k, share] of KIND_SHARES) {
    sum += share;
    if (roll < sum) {
      kind = k;
      break;
    }
  }
  if (kind === 'near-duplicate' && sources.trainingLogos.length === 0) kind = 'symbol';
  if (kind === 'dictionary wordmark' && sources.words.length === 0) kind = 'coined wordmark';
  const serial = serialOf(i);
  const nice = niceClasses(d);
  if (kind === 'symbol') {
    const s = symbol(d, 100, 100, 90, sources.words);
    return {
      serial,
      mark: '',
      kind,
      style: s.name,
      nice,
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">${s.svg}</svg>`,
    };
  }
  if (kind === 'near-duplicate') {
    const logo = d.pick(sources.trainingLogos);
    const variant = nearDuplicate(d, logo);
    return { serial, mark: variant.mark, kind, style: variant.style, nice, svg: variant.svg, variantOf: logo.brand };
  }
  const word =
    kind === 'dictionary wordmark'
      ? d.chance(0.2)
        ? `${d.pick(sources.words)} ${d.pick(sources.words)}`
        : d.pick(sources.words)
      : coinedWord(d, sources.words);
  const text = cased(d, word);
  const w = wordmark(d, text, sources.words);
  return { serial, mark: text, kind, style: w.style, nice, svg: w.svg };
}

/** The corpus as a stream: marks `from` to `to` (exclusive), one at a time. */
export function* registerScaleDesigns(
  seed: number,
  to: number,
  sources: DesignSources,
  from = 0,
): Generator<ScaleDesign> {
  for (let i = from; i < to; i++) yield designAt(seed, i, sources);
}

/** Dictionary words fit for a mark: plain lower-case letters, 3 to 12 of them (no possessives, no proper names). */
export function markWords(dictionary: string): string[] {
  return dictionary.split('\n').filter((w) => /^[a-z]{3,12}$/.test(w));
}

export interface Progress {
  format: typeof FORMAT;
  seed: number;
  /** Marks written (their images, manifest and record lines). */
  marks: number;
  /** Bytes of logos.jsonl and marks.jsonl holding exactly those marks. */
  logosBytes: number;
  marksBytes: number;
  /** Count of each kind among them. */
  kinds: Record<string, number>;
}

function readProgress(out: string): Progress | undefined {
  const file = path.join(out, 'progress.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Progress) : undefined;
}

/**
 * Writes (or extends, or finishes) the corpus of `marks` marks in `out`, a chunk at a time; returns its progress.
 * A folder holding another seed's corpus is refused.
 */
export function writeRegisterScaleLogos(options: {
  out: string;
  marks: number;
  seed: number;
  sources: DesignSources;
  chunk?: number;
  /** Stop after this many chunks (a run cut short, as an interruption would). */
  maxChunks?: number;
  onChunk?: (progress: Progress) => void;
}): Progress {
  const { out, marks, seed, sources } = options;
  const chunk = options.chunk ?? DEFAULT_CHUNK;
  mkdirSync(out, { recursive: true });
  const previous = readProgress(out);
  if (previous && (previous.format !== FORMAT || previous.seed !== seed))
    throw new Error(`${out} holds a corpus of seed ${previous.seed} (${previous.format}); choose another folder`);
  const progress: Progress = previous ?? { format: FORMAT, seed, marks: 0, logosBytes: 0, marksBytes: 0, kinds: {} };
  const logosPath = path.join(out, 'logos.jsonl');
  const marksPath = path.join(out, 'marks.jsonl');
  // Lines past the last recorded chunk belong to a chunk that was cut off: they are written again.
  const logosFd = openSync(logosPath, existsSync(logosPath) ? 'r+' : 'w+');
  const marksFd = openSync(marksPath, existsSync(marksPath) ? 'r+' : 'w+');
  try {
    ftruncateSync(logosFd, progress.logosBytes);
    ftruncateSync(marksFd, progress.marksBytes);
    let chunks = 0;
    while (progress.marks < marks && (options.maxChunks === undefined || chunks < options.maxChunks)) {
      const end = Math.min(marks, progress.marks + chunk);
      let logoLines = '';
      let markLines = '';
      for (const design of registerScaleDesigns(seed, end, sources, progress.marks)) {
        const n = Number(design.serial.slice(4)) - 1;
        const file = `images/${String(Math.floor(n / 1000)).padStart(4, '0')}/${design.serial}.svg`;
        mkdirSync(path.join(out, path.dirname(file)), { recursive: true });
        writeFileSync(path.join(out, file), design.svg);
        logoLines += `${JSON.stringify({ serial: design.serial, mark: design.mark, file, nice: design.nice, is_live: true, source: `register-scale-logos:${design.kind}` })}\n`;
        markLines += `${JSON.stringify({ serial: design.serial, mark: design.mark, nice: design.nice, is_live: true, drawing_kind: design.mark ? 'both' : 'design' })}\n`;
        progress.kinds[design.kind] = (progress.kinds[design.kind] ?? 0) + 1;
      }
      progress.logosBytes += writeSync(logosFd, logoLines, progress.logosBytes);
      progress.marksBytes += writeSync(marksFd, markLines, progress.marksBytes);
      progress.marks = end;
      const partial = path.join(out, 'progress.json.partial');
      writeFileSync(partial, JSON.stringify(progress, null, 1));
      renameSync(partial, path.join(out, 'progress.json'));
      chunks++;
      options.onChunk?.(progress);
    }
  } finally {
    closeSync(logosFd);
    closeSync(marksFd);
  }
  return progress;
}

/** The sources of a real run: the dictionary and the training brands' logos of render-logos.ts. */
export async function defaultSources(): Promise<DesignSources> {
  const { listDesigns, sampleBrands } = await import('./render-logos');
  const words = markWords(readFileSync('/usr/share/dict/words', 'utf8'));
  const trainingLogos = listDesigns(sampleBrands())
    .filter((design) => design.split === 'train')
    .map((design) => ({ brand: design.brand, title: design.title, svg: design.svg }));
  return { words, trainingLogos };
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { marks: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } },
  });
  const marks = Number(values.marks);
  if (!Number.isInteger(marks) || marks <= 0 || !values.out) {
    console.error('usage: npm run data:register-scale-logos -- --marks N --out DIR [--seed S]');
    process.exit(2);
  }
  const seed = Number(values.seed ?? 41);
  const started = Date.now();
  defaultSources()
    .then((sources) => {
      const progress = writeRegisterScaleLogos({
        out: values.out!,
        marks,
        seed,
        sources,
        onChunk: (p) => {
          if (p.marks % 10_000 === 0 || p.marks === marks)
            console.log(`${p.marks.toLocaleString('en')} marks (${Math.round((Date.now() - started) / 1000)} s)`);
        },
      });
      const bytes = statSync(path.join(values.out!, 'logos.jsonl')).size;
      console.log(
        `${progress.marks.toLocaleString('en')} marks in ${values.out} (seed ${seed}; manifest ${bytes.toLocaleString('en')} bytes): ` +
          Object.entries(progress.kinds)
            .map(([kind, n]) => `${kind} ${n}`)
            .join(', '),
      );
    })
    .catch((error) => {
      console.error(`error: ${(error as Error).message}`);
      process.exit(1);
    });
}
