/**
 * How much rendering an SVG asks for, judged from its markup before a pixel is drawn. librsvg cannot be stopped
 * once it renders (sharp's timeout does not reach it), so the bound has to come first: filters are where a 2 KB
 * file becomes tens of seconds of CPU (20 nested blur + dilate filters took 5.6 s at our 512-pixel render; one
 * dilate of radius 50 px, 1.7 s), and deep nesting or thousands of `<use>` copies multiply any cost.
 *
 * A logo with a drop shadow or a glow (a few primitives, one or two filtered groups, small radii) is well inside
 * every limit. Anything over one is refused as `image_too_complex` before the work, and before the charge when the
 * image came inline.
 */
import { SaxesParser } from 'saxes';
import { ServiceUnavailableError } from '../errors';
import { ImageTooComplexError } from './image-errors';

export const SVG_LIMITS = {
  /** Elements in the document. */
  elements: 20_000,
  /** Depth of element nesting. */
  depth: 128,
  /** `<use>` elements (each can copy a whole subtree). */
  uses: 1_000,
  /** Filter primitives (`fe*` elements that draw: not feMergeNode, feFunc*, or light sources). */
  filterPrimitives: 10,
  /** Elements that apply a filter. */
  filteredElements: 4,
  /** Filtered elements inside filtered elements (each level filters the one below again). */
  filterNesting: 2,
  /** feMorphology radius, in pixels of the render (the render's longer side is SVG_RENDER_SIDE). */
  morphologyRadiusPx: 2,
  /** feMorphology primitives drawn, counting each filtered element that applies one (the costliest primitive). */
  morphologyApplications: 2,
  /** feGaussianBlur stdDeviation, in pixels of the render. */
  blurDeviationPx: 32,
  /** Filter region width or height, as a share of the element (objectBoundingBox) or of the picture (user space). */
  filterRegionShare: 2,
} as const;

const NON_DRAWING_FE = new Set([
  'femergenode',
  'fefuncr',
  'fefuncg',
  'fefuncb',
  'fefunca',
  'fedistantlight',
  'fepointlight',
  'fespotlight',
]);

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1).toLowerCase();
}

/** A length as SVG writes it, in CSS pixels; percentages and unknown units give undefined. */
function lengthPx(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px|pt|pc|mm|cm|in)?\s*$/i.exec(value);
  if (!match) return undefined;
  const factor = { px: 1, pt: 4 / 3, pc: 16, mm: 96 / 25.4, cm: 96 / 2.54, in: 96 }[
    (match[2] ?? 'px').toLowerCase() as 'px'
  ];
  return Number(match[1]) * factor;
}

function numbers(value: string | undefined): number[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
}

/** A filter region size: a percentage or a fraction (objectBoundingBox) or a length (user space), as a share. */
function regionShare(value: string | undefined, userSpace: boolean, pictureSide: number): number {
  if (value === undefined) return 1.2;
  const trimmed = value.trim();
  if (trimmed.endsWith('%')) return Number(trimmed.slice(0, -1)) / 100;
  const n = userSpace ? lengthPx(trimmed) : Number(trimmed);
  if (n === undefined || Number.isNaN(n)) return Number.POSITIVE_INFINITY;
  return userSpace ? n / pictureSide : n;
}

function refuse(reason: string, limit: number): never {
  throw new ImageTooComplexError(reason, limit);
}

/** The counts of one document, element by element, refusing as soon as one goes over its limit. */
class RenderingBudget {
  private elements = 0;
  private uses = 0;
  private primitives = 0;
  private filtered = 0;
  private scale = 1;
  private pictureSide: number;
  /** For each open element: whether it applies a filter. */
  private readonly open: boolean[] = [];
  private filteredOpen = 0;
  private styleDepth = 0;
  private readonly filters: { userSpace: boolean; width?: string; height?: string }[] = [];
  /** feMorphology primitives of each filter, by id; the filter ids applied, once per element applying one. */
  private readonly morphologiesOf = new Map<string, number>();
  private readonly applied: string[] = [];
  private insideFilter: string | undefined;

  constructor(private readonly renderSide: number) {
    this.pictureSide = renderSide;
  }

  openElement(name: string, attrs: Record<string, string>): void {
    if (++this.elements > SVG_LIMITS.elements)
      refuse(`it has more than ${SVG_LIMITS.elements} elements`, SVG_LIMITS.elements);
    if (this.open.length >= SVG_LIMITS.depth)
      refuse(`its elements nest more than ${SVG_LIMITS.depth} deep`, SVG_LIMITS.depth);
    if (this.elements === 1) this.readPictureSize(attrs);
    if (name === 'style') this.styleDepth++;
    if (name === 'use' && ++this.uses > SVG_LIMITS.uses)
      refuse(`it has more than ${SVG_LIMITS.uses} <use> elements`, SVG_LIMITS.uses);
    if (name === 'filter') {
      this.insideFilter = attrs.id ?? '';
      this.filters.push({
        userSpace: attrs.filterunits === 'userSpaceOnUse',
        width: attrs.width,
        height: attrs.height,
      });
    }
    if (name.startsWith('fe') && !NON_DRAWING_FE.has(name)) this.primitive(name, attrs);
    const appliesFilter =
      (attrs.filter !== undefined && attrs.filter.trim() !== 'none') ||
      /(^|;)\s*filter\s*:\s*(?!none)/i.test(attrs.style ?? '');
    if (appliesFilter) {
      const reference = /url\(\s*["']?#([^"')\s]+)/.exec(attrs.filter ?? attrs.style ?? '');
      this.applied.push(reference?.[1] ?? '');
      if (++this.filtered > SVG_LIMITS.filteredElements)
        refuse(`more than ${SVG_LIMITS.filteredElements} elements apply a filter`, SVG_LIMITS.filteredElements);
      if (this.filteredOpen + 1 > SVG_LIMITS.filterNesting)
        refuse(`filtered elements nest more than ${SVG_LIMITS.filterNesting} deep`, SVG_LIMITS.filterNesting);
      this.filteredOpen++;
    }
    this.open.push(appliesFilter);
  }

  closeElement(name: string): void {
    if (this.open.pop()) this.filteredOpen--;
    if (name === 'style') this.styleDepth--;
    if (name === 'filter') this.insideFilter = undefined;
  }

  styleText(css: string): void {
    // A stylesheet can put one filter on any number of elements, out of reach of the counts above.
    if (this.styleDepth > 0 && /filter\s*:\s*(?!none)/i.test(css))
      refuse('a filter set in a stylesheet (set it with the filter attribute)', 0);
  }

  /** What needs the whole document: filters applied by reference, filter regions in the picture's units. */
  finish(): void {
    const morphologies = this.applied.reduce((sum, id) => sum + (this.morphologiesOf.get(id) ?? 0), 0);
    if (morphologies > SVG_LIMITS.morphologyApplications)
      refuse(`filters apply feMorphology ${morphologies} times`, SVG_LIMITS.morphologyApplications);
    for (const filter of this.filters) {
      const share = Math.max(
        regionShare(filter.width, filter.userSpace, this.pictureSide),
        regionShare(filter.height, filter.userSpace, this.pictureSide),
      );
      if (!(share <= SVG_LIMITS.filterRegionShare)) {
        refuse(
          `a filter region is ${Number.isFinite(share) ? `${share.toFixed(1)} times` : 'unreadably'} the size of what it filters`,
          SVG_LIMITS.filterRegionShare,
        );
      }
    }
  }

  /** The root's size in user units, so that radii can be judged in pixels of the render. */
  private readPictureSize(attrs: Record<string, string>): void {
    const viewBox = numbers(attrs.viewbox);
    const width = lengthPx(attrs.width) ?? (viewBox.length === 4 ? viewBox[2] : undefined);
    const height = lengthPx(attrs.height) ?? (viewBox.length === 4 ? viewBox[3] : undefined);
    const userSide = Math.max(viewBox.length === 4 ? Math.max(viewBox[2]!, viewBox[3]!) : 0, width ?? 0, height ?? 0);
    if (userSide > 0 && Number.isFinite(userSide)) {
      this.pictureSide = userSide;
      this.scale = this.renderSide / userSide;
    }
  }

  private primitive(name: string, attrs: Record<string, string>): void {
    if (++this.primitives > SVG_LIMITS.filterPrimitives)
      refuse(`it has more than ${SVG_LIMITS.filterPrimitives} filter primitives`, SVG_LIMITS.filterPrimitives);
    if (name === 'femorphology') {
      if (this.insideFilter !== undefined)
        this.morphologiesOf.set(this.insideFilter, (this.morphologiesOf.get(this.insideFilter) ?? 0) + 1);
      const radius = Math.max(0, ...numbers(attrs.radius).map(Math.abs)) * this.scale;
      if (!(radius <= SVG_LIMITS.morphologyRadiusPx))
        refuse(`an feMorphology radius is ${Math.round(radius)} pixels at render size`, SVG_LIMITS.morphologyRadiusPx);
    }
    if (name === 'fegaussianblur') {
      const deviation = Math.max(0, ...numbers(attrs.stddeviation).map(Math.abs)) * this.scale;
      if (!(deviation <= SVG_LIMITS.blurDeviationPx))
        refuse(
          `an feGaussianBlur stdDeviation is ${Math.round(deviation)} pixels at render size`,
          SVG_LIMITS.blurDeviationPx,
        );
    }
  }
}

/**
 * Throws ImageTooComplexError when the SVG asks for more rendering than SVG_LIMITS allow. `renderSide` is the
 * longer side, in pixels, the SVG will be rendered at. The markup must already be well-formed (checkSvg).
 */
export function checkSvgBudget(text: string, renderSide: number): void {
  const budget = new RenderingBudget(renderSide);
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('opentag', (tag) =>
    budget.openElement(
      localName(tag.name),
      Object.fromEntries(Object.entries(tag.attributes).map(([k, v]) => [localName(k), v])),
    ),
  );
  parser.on('closetag', (tag) => budget.closeElement(localName(tag.name)));
  parser.on('text', (css) => budget.styleText(css));
  parser.on('cdata', (css) => budget.styleText(css));
  parser.write(text).close();
  budget.finish();
}

/** How long an SVG may take to render; past it the answer is `image_too_complex` (the render itself runs out). */
export const SVG_RENDER_DEADLINE_MS = 1500;

let renderGate: Promise<void> = Promise.resolve();

/**
 * Renders one SVG at a time in this process, so that SVGs never hold more than one of libuv's threads (the other
 * images keep theirs), and answers within SVG_RENDER_DEADLINE_MS, waiting included. A render that overruns keeps
 * its thread until it ends (it cannot be stopped), and holds the gate until then: what the budget lets through is
 * bounded, so that is bounded too.
 */
export async function renderSvgWithinDeadline<T>(
  render: () => Promise<T>,
  deadlineMs = SVG_RENDER_DEADLINE_MS,
): Promise<T> {
  const startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deadlineMs);
  });
  const previous = renderGate;
  let release!: () => void;
  renderGate = new Promise<void>((resolve) => (release = resolve));
  try {
    const turn = await Promise.race([previous.then(() => 'turn' as const), timedOut]);
    if (turn === 'timeout') {
      void previous.then(release);
      throw new ServiceUnavailableError('SVG rendering');
    }
    const rendering = render();
    void rendering.then(release, release);
    const outcome = await Promise.race([rendering, timedOut]);
    if (outcome === 'timeout')
      throw new ImageTooComplexError(
        `it did not render within ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
        deadlineMs,
      );
    return outcome as T;
  } finally {
    clearTimeout(timer);
  }
}
