/** The part of jsdom 29 (untyped package) that the gateway's SVG sanitiser uses. */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: Window & typeof globalThis;
  }
}
