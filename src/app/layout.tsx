import type { ReactNode } from 'react';
import { AppBar, Layout, LocalesMenuButton, TitlePortal } from 'react-admin';
import { Box } from '@mui/material';
import { ListErrorNotifier } from './list-errors.tsx';
import { LocalisedComponents } from './localised-components.tsx';
import { AppMenu } from './menu.tsx';
import { RouteGuard } from './route-guard.tsx';
import { SessionKeeper } from './session-keeper.tsx';
import { environment } from './environment.ts';

function TopBar() {
  return (
    <AppBar toolbar={<LocalesMenuButton />}>
      <TitlePortal />
    </AppBar>
  );
}

/**
 * react-admin's layout grows to its widest content, so a wide list pushed its own toolbar (create,
 * export, import) off screen. Held to the window here, a wide table scrolls in its own box.
 */
const fitWindow = {
  minWidth: 0,
  '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content, & .RaList-main': { minWidth: 0 },
};

/**
 * Main layout: feature sidebar, top bar, and a slot for the quick-action overlay; MUI's own texts
 * in the app's language.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <LocalisedComponents>
      <Layout menu={AppMenu} appBar={TopBar} sx={fitWindow}>
        <RouteGuard>{children}</RouteGuard>
        <Box id="quick-action-overlay" />
        <ListErrorNotifier />
        <SessionKeeper inactiveSignOutSeconds={environment.inactiveSignOutSeconds} />
      </Layout>
    </LocalisedComponents>
  );
}
