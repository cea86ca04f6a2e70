import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { badRequest } from '../../http-error.ts';

/**
 * What the gateway's PDF sheets share (a service point's, a ticket's): the words from the app's own
 * locale files in the language the request asks for, DejaVu Sans so that Polish and Nordic names print as
 * written, an A4 page with headings and labelled lines, and a footer with the time it was made.
 */

export const LANGUAGES = ['en-US', 'fr-FR'] as const;
export type Language = (typeof LANGUAGES)[number];

type Messages = { [key: string]: string | Messages };
const messages = new Map<Language, Messages>();

function messagesOf(language: Language): Messages {
  let found = messages.get(language);
  if (!found) {
    found = JSON.parse(
      readFileSync(new URL(`../../../../locales/${language}.json`, import.meta.url), 'utf8'),
    ) as Messages;
    messages.set(language, found);
  }
  return found;
}

export type Translate = (key: string, args?: Record<string, string | number>) => string;

/** The locale's text at a dotted key, `%{name}` filled in; the key's last part when the locale has none. */
export function translatorFor(language: Language): Translate {
  const root = messagesOf(language);
  return (key, args = {}) => {
    let node: string | Messages | undefined = root;
    // A time zone id such as 'Europe/Oslo' holds no dot, so a key splits at dots only.
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    const text = typeof node === 'string' ? node : (key.split('.').pop() ?? key);
    return text.replace(/%\{(\w+)\}/g, (_, name: string) => String(args[name] ?? ''));
  };
}

/** `lang` wins (`fr`, `fr-FR`, `en-US`...); else the first language of Accept-Language the app speaks. */
export function languageOf(query: Record<string, string>, headers: IncomingHttpHeaders): Language {
  const match = (tag: string) =>
    LANGUAGES.find((language) => language.slice(0, 2) === tag.trim().slice(0, 2).toLowerCase());
  if (query.lang) {
    const asked = match(query.lang);
    // Not a shape: any tag whose first two letters name a language the app speaks (`fr`, `FR-be`...).
    if (!asked) throw badRequest('gateway.one_of', { name: 'lang', values: LANGUAGES.join(', ') });
    return asked;
  }
  const accepted = (headers['accept-language'] ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.split(';');
      const quality = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find(Boolean);
      return { tag, quality: quality === undefined ? 1 : Number(quality) };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality);
  for (const { tag } of accepted) {
    const language = match(tag);
    if (language) return language;
  }
  return 'en-US';
}

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD_FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

export interface SheetWords {
  /** The PDF's title (document information). */
  title: string;
  /** Locale key of a label before its value: `%{label}: `. */
  label: string;
  /** Locale key of the footer: `%{date}`. */
  generated: string;
}

/** A new A4 sheet in the language's words; `finish` adds the footer and ends it, `done` gives the bytes. */
export function startSheet(language: Language, words: SheetWords) {
  const t = translatorFor(language);
  const dash = '-';
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: words.title, Creator: 'Locker network webtool' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', BOLD_FONT);

  const heading = (text: string) => {
    doc.moveDown(0.8).font('bold').fontSize(12).fillColor('#1a3a5c').text(text).moveDown(0.2);
    doc.font('regular').fontSize(10).fillColor('black');
  };
  const labelled = (label: string, value: string) => `${t(words.label, { label })}${value}`;
  const line = (label: string, value: string) => {
    doc
      .font('bold')
      .text(t(words.label, { label }), { continued: true })
      .font('regular')
      .text(value || dash);
  };
  const finish = (now: Date) => {
    const generated = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
    doc
      .moveDown(1.5)
      .fontSize(8)
      .fillColor('#555')
      .text(t(words.generated, { date: `${generated.format(now)} UTC` }));
    doc.end();
  };
  return { doc, done, t, dash, heading, labelled, line, finish };
}
