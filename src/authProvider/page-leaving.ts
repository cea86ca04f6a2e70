/**
 * Whether the page is being left: a reload, a typed address, a link out. Between the browser's
 * `beforeunload` and the next page, requests still in flight fail exactly as if the network were
 * down (Chromium: "TypeError: Failed to fetch", page still visible), and the page's code still
 * runs. A sign-out on such a failure would revoke the very session the next page is about to use.
 *
 * The mark is cleared when the user acts on the page again (a leave they cancelled, for instance
 * at the unsaved-changes prompt) and when the page comes back from the back-forward cache.
 */
let leaving = false;

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    leaving = true;
  });
  const stay = () => {
    leaving = false;
  };
  for (const type of ['pointerdown', 'keydown', 'pageshow'] as const) {
    window.addEventListener(type, stay, { capture: true, passive: true });
  }
}

export function pageIsLeaving(): boolean {
  return leaving;
}
