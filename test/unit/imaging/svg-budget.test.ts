/** The SVG rendering budget: what a logo with a shadow passes, and each limit refused on its own. */
import { ImageTooComplexError } from '../../../shared/imaging/image-errors';
import { checkSvgBudget, SVG_LIMITS } from '../../../shared/imaging/svg-budget';

const RENDER_SIDE = 512;
const svg = (body: string, defs = '', side = 512) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><defs>${defs}</defs>${body}</svg>`;
const filter = (id: string, inner: string, region = 'x="-10%" y="-10%" width="120%" height="120%"') =>
  `<filter id="${id}" ${region}>${inner}</filter>`;

function reasonOf(text: string): string | undefined {
  try {
    checkSvgBudget(text, RENDER_SIDE);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ImageTooComplexError);
    return (error as ImageTooComplexError).details!.reason as string;
  }
}

describe('checkSvgBudget', () => {
  it('passes a logo with a drop shadow', () => {
    const shadow = filter(
      's',
      '<feGaussianBlur in="SourceAlpha" stdDeviation="3"/><feOffset dx="2" dy="2"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>',
    );
    expect(
      reasonOf(svg('<g filter="url(#s)"><circle cx="256" cy="256" r="200" fill="red"/></g>', shadow)),
    ).toBeUndefined();
  });

  it('refuses the 20 nested blur + dilate filters of the hostile 4096-pixel SVG', () => {
    let defs = '';
    let body = '<rect width="4096" height="4096"/>';
    for (let i = 0; i < 20; i++) {
      defs += filter(
        `f${i}`,
        '<feGaussianBlur stdDeviation="60"/><feMorphology operator="dilate" radius="40"/>',
        'x="-50%" y="-50%" width="200%" height="200%"',
      );
      body = `<g filter="url(#f${i})">${body}</g>`;
    }
    // Refused by whichever limit it meets first in document order: here the first dilate's radius (40 / 8 = 5 px).
    expect(reasonOf(svg(body, defs, 4096))).toMatch(/feMorphology radius is 5 pixels/);
  });

  it('counts feMorphology radius in pixels of the render: 4 user units of a 4096 picture pass, of a 512 picture do not', () => {
    const dilate = filter('d', '<feMorphology operator="dilate" radius="4"/>');
    expect(reasonOf(svg('<g filter="url(#d)"><rect width="9" height="9"/></g>', dilate, 4096))).toBeUndefined();
    expect(reasonOf(svg('<g filter="url(#d)"><rect width="9" height="9"/></g>', dilate, 512))).toMatch(
      /feMorphology radius is 4 pixels/,
    );
  });

  it('refuses more morphology applications, filtered elements and filter nesting than allowed', () => {
    const dilate = filter('d', '<feMorphology radius="1"/>');
    const three = Array.from({ length: 3 }, () => '<g filter="url(#d)"><rect width="9" height="9"/></g>').join('');
    expect(reasonOf(svg(three, dilate))).toMatch(/feMorphology 3 times/);
    const blur = filter('b', '<feGaussianBlur stdDeviation="1"/>');
    const many = Array.from(
      { length: SVG_LIMITS.filteredElements + 1 },
      () => '<g filter="url(#b)"><rect width="9" height="9"/></g>',
    ).join('');
    expect(reasonOf(svg(many, blur))).toMatch(/elements apply a filter/);
    expect(reasonOf(svg('<g filter="url(#b)"><g filter="url(#b)"><g filter="url(#b)"/></g></g>', blur))).toMatch(
      /nest more than 2/,
    );
  });

  it('refuses a huge filter region, a filter set in a stylesheet, deep nesting and too many <use>', () => {
    expect(
      reasonOf(
        svg('<g filter="url(#b)"/>', filter('b', '<feGaussianBlur stdDeviation="1"/>', 'width="1000%" height="1000%"')),
      ),
    ).toMatch(/filter region/);
    expect(reasonOf(svg('<style>.a{filter:url(#b)}</style><g class="a"/>'))).toMatch(/stylesheet/);
    expect(reasonOf(svg('<g>'.repeat(SVG_LIMITS.depth) + '</g>'.repeat(SVG_LIMITS.depth)))).toMatch(
      /nest more than 128 deep/,
    );
    expect(reasonOf(svg('<use href="#x"/>'.repeat(SVG_LIMITS.uses + 1)))).toMatch(/<use> elements/);
  });
});
