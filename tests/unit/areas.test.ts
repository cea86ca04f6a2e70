import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import { areas, areaOfResource } from '../../src/schema/areas.ts';
import { features } from '../../src/schema/features.ts';
import { areaIcons } from '../../src/schema/ui/area-icons.tsx';
import { ruleFor } from '../../src/authProvider/route-access.ts';
import { navItems } from '../../src/app/navigation.ts';
import { layoutRoutes } from '../../src/app/route-tables.tsx';
import { resources } from '../../src/app/resources.ts';

/** Routed in src/app/admin.tsx with a layout of its own (spec 01 §2.1). */
const outsideMainLayout = ['/location-generator'];

/** The paths the app routes: its own pages and every resource's list. */
function routedPaths(): string[] {
  const own = [...layoutRoutes('service-points'), ...layoutRoutes('loma')]
    .filter((route): route is ReactElement<{ path: string }> => isValidElement(route))
    .map((route) => route.props.path.replace(/\/\*$/, ''));
  return [...new Set([...own, ...outsideMainLayout, ...resources.map((resource) => `/${resource.name}`)])];
}

const menuLabel = (locale: typeof en, key: string) => (locale.menu as Record<string, string>)[key];

describe('areas: each declared once, and everything built from them', () => {
  it('every routed path has an access rule', () => {
    const withoutRule = routedPaths().filter((path) => !ruleFor(path));
    expect(withoutRule).toEqual([]);
  });

  it('every menu item opens a routed path', () => {
    const paths = new Set(routedPaths());
    expect(navItems.filter((item) => !paths.has(item.path)).map((item) => item.path)).toEqual([]);
  });

  it('an area names each path once', () => {
    const paths = areas.map((area) => area.path);
    expect(paths.filter((path, index) => paths.indexOf(path) !== index)).toEqual([]);
  });

  it("a resource's area has the resource's feature, and every resource with a list has an area", () => {
    for (const resource of resources) {
      const area = areaOfResource(resource.name);
      expect(area, resource.name).toBeDefined();
      expect(area!.path, resource.name).toBe(`/${resource.name}`);
      expect(resource.model.features, resource.name).toEqual(features[area!.feature!]);
    }
    for (const area of areas.filter((a) => a.resource)) {
      expect(
        resources.map((resource) => resource.name),
        area.key,
      ).toContain(area.resource);
    }
  });

  it('menu items and resources show the icon of their area, which the app can draw', () => {
    for (const area of areas.filter((a) => a.menu || a.resource)) {
      expect(area.icon, area.key).toBeDefined();
      expect(areaIcons[area.icon!], area.key).toBeDefined();
    }
    for (const resource of resources) {
      expect(resource.icon, resource.name).toBe(areaIcons[areaOfResource(resource.name)!.icon!]);
    }
  });

  it('every menu item is labelled in both languages', () => {
    for (const item of [...navItems, { key: 'shipment_reports' }]) {
      expect(menuLabel(en, item.key), item.key).toBeTruthy();
      expect(menuLabel(fr, item.key), item.key).toBeTruthy();
    }
  });
});
