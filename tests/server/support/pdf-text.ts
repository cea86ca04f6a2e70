import { inflateSync } from 'node:zlib';

/**
 * Reads back what a PDF of the gateway says, without a PDF library: its objects, the number of pages,
 * and the text of each page. The gateway's PDFs (pdfkit) draw text in embedded TrueType fonts, as glyph
 * ids in hex (`<0012003a> Tj`), so text is only found through each font's ToUnicode map.
 */

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

export function pdfObjects(bytes: Buffer): Map<number, PdfObject> {
  const text = bytes.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const header = /(\d+) 0 obj\s*/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const bodyStart = match.index + match[0].length;
    const streamAt = text.indexOf('stream', bodyStart);
    const endAt = text.indexOf('endobj', bodyStart);
    if (streamAt < 0 || endAt < streamAt) {
      objects.set(Number(match[1]), { dict: text.slice(bodyStart, endAt) });
      continue;
    }
    // A stream is read by its /Length: its compressed bytes may spell anything, 'endobj' included.
    const dict = text.slice(bodyStart, streamAt);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const dataStart = text.indexOf('\n', streamAt) + 1;
    const raw = bytes.subarray(dataStart, dataStart + length);
    objects.set(Number(match[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
    header.lastIndex = text.indexOf('endobj', dataStart + length);
  }
  return objects;
}

const refOf = (dict: string, key: string) => {
  const found = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  return found ? Number(found[1]) : undefined;
};

/** A ligature's entry holds several code units, written with spaces between them (`<0066 0066>`). */
const utf16 = (spaced: string) => {
  const hex = spaced.replace(/\s+/g, '');
  let text = '';
  for (let index = 0; index < hex.length; index += 4)
    text += String.fromCharCode(parseInt(hex.slice(index, index + 4), 16));
  return text;
};

/** A ToUnicode CMap as glyph code -> text (its `bfchar` and `bfrange` entries). */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, value] of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      map.set(parseInt(code, 16), utf16(value));
    }
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, low, high, rest] of block[1].matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g,
    )) {
      const from = parseInt(low, 16);
      const to = parseInt(high, 16);
      if (rest.startsWith('[')) {
        [...rest.matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach(([, value], index) => map.set(from + index, utf16(value)));
      } else {
        const first = parseInt(rest.slice(1, -1), 16);
        for (let code = from; code <= to; code += 1) map.set(code, String.fromCharCode(first + code - from));
      }
    }
  }
  return map;
}

/** The text of each page, one line per text-showing operation group, in drawing order. */
export function pdfPages(bytes: Buffer): string[] {
  const objects = pdfObjects(bytes);
  const pages = [...objects.values()].filter((object) => /\/Type \/Page\b/.test(object.dict));
  return pages.map((page) => {
    const resourcesRef = refOf(page.dict, 'Resources');
    const resources = resourcesRef === undefined ? page.dict : objects.get(resourcesRef)!.dict;
    const fonts = new Map<string, Map<number, string>>();
    const fontBlock = /\/Font\s*<<([\s\S]*?)>>/.exec(resources)?.[1] ?? '';
    for (const [, name, ref] of fontBlock.matchAll(/\/(\w+) (\d+) 0 R/g)) {
      const cmapRef = refOf(objects.get(Number(ref))!.dict, 'ToUnicode');
      const cmap = cmapRef === undefined ? undefined : objects.get(cmapRef)?.stream?.toString('latin1');
      fonts.set(name, cmap ? toUnicode(cmap) : new Map());
    }
    const content = objects.get(refOf(page.dict, 'Contents')!)!.stream!.toString('latin1');
    let font = new Map<number, string>();
    const lines: string[] = [];
    let current = '';
    for (const [, fontName, hex, operator] of content.matchAll(
      /\/(\w+) [\d.]+ Tf|<([0-9a-fA-F]*)>|\b(ET|Td|TD|T\*)\b/g,
    )) {
      if (fontName) font = fonts.get(fontName) ?? new Map();
      else if (hex !== undefined) {
        for (let index = 0; index < hex.length; index += 4)
          current += font.get(parseInt(hex.slice(index, index + 4), 16)) ?? '';
      } else if (operator && current) {
        lines.push(current);
        current = '';
      }
    }
    if (current) lines.push(current);
    return lines.join('\n');
  });
}
