import type { ReactNode } from 'react';
import { AppBar, Layout, LocalesMenuButton, TitlePortal } from 'react-admin';
import { Box } from '@mui/material';
import { ListErrorNotifier } from './list-errors.tsx';
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

/** Main layout: feature sidebar, top bar, and a slot for the quick-action overlay. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={AppMenu} appBar={TopBar}>
      <RouteGuard>{children}</RouteGuard>
      <Box id="quick-action-overlay" />
      <ListErrorNotifier />
      <SessionKeeper inactiveSignOutSeconds={environment.inactiveSignOutSeconds} />
    </Layout>
  );
}
