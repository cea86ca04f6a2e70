/**
 * Badge colours that come as data (`webtool/lists?type=badges` items carry `color: "#rrggbb"`): the
 * colour itself would often be unreadable as a background behind text, so a badge takes a light tint
 * of it as background, the colour as border, and text of the same hue darkened until it reads at
 * least 7:1 (WCAG AAA) on that tint, as the fixed badge colours do (src/schema/ui/status-badge.tsx).
 */

type Rgb = [number, number, number];

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const TINT = 0.15;
export const BADGE_TEXT_CONTRAST = 7;

function parseHex(hex: string): Rgb | undefined {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!match) return undefined;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** `share` of `colour`, the rest of `base`. */
const mix = (colour: Rgb, base: Rgb, share: number): Rgb =>
  colour.map((c, i) => c * share + base[i] * (1 - share)) as Rgb;

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(first: string, second: string): number {
  const a = luminance(parseHex(first) ?? BLACK);
  const b = luminance(parseHex(second) ?? BLACK);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

export interface BadgeTint {
  background: string;
  color: string;
  border: string;
}

/** The badge colours of one data colour; undefined for a value that is not a hex colour. */
export function badgeTint(hex: string | undefined): BadgeTint | undefined {
  const colour = hex === undefined ? undefined : parseHex(hex);
  if (!colour) return undefined;
  const background = toHex(mix(colour, WHITE, TINT));
  // Darker steps of the hue until the text reads; black (at least 18:1 on a light tint) ends the search.
  for (let share = 0.7; share > 0; share -= 0.1) {
    const text = toHex(mix(colour, BLACK, share));
    if (contrastRatio(text, background) >= BADGE_TEXT_CONTRAST) {
      return { background, color: text, border: toHex(colour) };
    }
  }
  return { background, color: toHex(BLACK), border: toHex(colour) };
}
