/** Areas whose screens come with later issues: path -> menu key. */
export const comingAreas: Record<string, string> = {};

/** Whether the screens under `path` are built yet: the menu's first such area is where a day starts. */
export function isBuiltArea(path: string): boolean {
  const inner = path.replace(/^\//, '').toLowerCase();
  return !Object.keys(comingAreas).some((area) => inner === area || inner.startsWith(`${area}/`));
}
