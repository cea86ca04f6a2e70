import {
  createContext,
  createElement,
  Suspense,
  useContext,
  useMemo,
  type ComponentType,
  type ReactElement,
} from 'react';
import { Skeleton } from '@mui/material';
import { useCanAccessResources } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';

/** What the engine passes to a registered tab panel; the record comes from the record context. */
export interface TabPanelProps {
  model: ResourceModel;
}

/**
 * Schema tab name -> the content a resource registers for it (`schemaResource(id, { panels })`): a
 * tab of `x-resource.tabs` with no inputs, drawn by the resource's own code (a locker's compartment
 * grid), in the edit page and the read-only view alike. A panel may be `React.lazy`, so that its code
 * loads when the tab is first opened.
 */
export type TabPanels = Readonly<Record<string, ComponentType<TabPanelProps>>>;

const RegisteredTabPanels = createContext<TabPanels>({});

export const TabPanelsProvider = RegisteredTabPanels.Provider;

/** The panels registered for the resource on screen. */
export function useTabPanels(): TabPanels {
  return useContext(RegisteredTabPanels);
}

/** The tab's registered panel, rendered; undefined when none is registered for it. */
export function registeredPanel(panels: TabPanels, tab: string, model: ResourceModel): ReactElement | undefined {
  if (!Object.hasOwn(panels, tab)) return undefined;
  return (
    <Suspense fallback={<Skeleton variant="rounded" height={160} />}>{createElement(panels[tab], { model })}</Suspense>
  );
}

/**
 * The tabs of `x-resource.tabs` the user may see: a tab of `x-resource.tabReads` only when the user may
 * list the resource it names (a service point's Hardware units tab for who may read hardware); the
 * gateway refuses that tab's calls to anyone else.
 */
export function useReadableTabs(model: ResourceModel): string[] {
  const guarded = useMemo(() => [...new Set(Object.values(model.tabReads))], [model.tabReads]);
  const { canAccess } = useCanAccessResources({ action: 'list', resources: guarded });
  return model.tabs.filter((tab) => {
    const needs = Object.hasOwn(model.tabReads, tab) ? model.tabReads[tab] : undefined;
    return needs === undefined || canAccess?.[needs] === true;
  });
}
