import createDOMPurify, { type Config, type WindowLike } from 'dompurify';

/** Spec 02, carrier: "logo SVG only, max 1 MB". */
export const SVG_MAX_BYTES = 1024 * 1024;
export const SVG_CONTENT_TYPE = 'image/svg+xml';
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** Catalogue message keys, the same in the browser's checks and in the gateway's answers. */
export const SVG_MESSAGES = {
  notSvg: 'catalogue.svg_only',
  tooLarge: 'catalogue.file_too_large',
  invalid: 'catalogue.invalid_svg',
} as const;

/** What can be judged before the content is read: the browser checks it before sending, the gateway again. */
export function svgFileProblem(file: { name: string; type: string; size: number }): string | undefined {
  if (file.type !== SVG_CONTENT_TYPE || !/\.svg$/i.test(file.name)) return SVG_MESSAGES.notSvg;
  if (file.size > SVG_MAX_BYTES) return SVG_MESSAGES.tooLarge;
  return undefined;
}

const SANITISER_CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  // Logos reuse their own shapes with <use>; the href hook keeps it from pointing outside the file.
  ADD_TAGS: ['use'],
  // Outside the SVG profile already; named so that no later profile change lets them in.
  FORBID_TAGS: ['script', 'foreignObject'],
};

/** A link may only point inside the file, or embed a raster image; never at another document or script. */
function isLocalReference(element: Element, value: string) {
  return (
    value.startsWith('#') ||
    (element.localName === 'image' && /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i.test(value))
  );
}

export type SvgWindow = WindowLike & Pick<typeof globalThis, 'XMLSerializer'>;

/**
 * DOMPurify (cure53): a maintained allow-list sanitiser that tracks browsers' parsing quirks and new
 * bypasses, rather than a home-made filter that would miss them. Bound to a window: the page's in the
 * browser, a jsdom one in the gateway, so both run the same rules. The returned function gives the
 * sanitised SVG document, or undefined when the text is not well-formed XML with an SVG root.
 */
export function createSvgSanitiser(window: SvgWindow): (text: string) => string | undefined {
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (element, event) => {
    if ((event.attrName === 'href' || event.attrName === 'xlink:href') && !isLocalReference(element, event.attrValue)) {
      event.keepAttr = false;
    }
  });
  return (text) => {
    const parsed = new window.DOMParser().parseFromString(text, SVG_CONTENT_TYPE);
    const root = parsed.documentElement;
    if (root?.localName !== 'svg' || root.namespaceURI !== SVG_NAMESPACE) return undefined;
    if (parsed.getElementsByTagName('parsererror').length) return undefined;
    // DOMPurify works in an HTML document, which cannot hold CDATA sections; their text is what counts.
    const walker = parsed.createTreeWalker(parsed, window.NodeFilter.SHOW_CDATA_SECTION);
    const sections: Node[] = [];
    while (walker.nextNode()) sections.push(walker.currentNode);
    for (const section of sections)
      section.parentNode?.replaceChild(parsed.createTextNode(section.nodeValue ?? ''), section);
    const body = purify.sanitize(root, { ...SANITISER_CONFIG, RETURN_DOM: true });
    const svg = body.firstChild;
    // XML, not HTML, serialisation: the file is served as image/svg+xml and must keep its namespace.
    return svg ? new window.XMLSerializer().serializeToString(svg) : undefined;
  };
}
