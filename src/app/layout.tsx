import { useEffect, type ReactNode } from 'react';
import { AppBar, Layout, LocalesMenuButton, TitlePortal } from 'react-admin';
import { Box } from '@mui/material';
import { GlobalSearch } from './global-search.tsx';
import { ListErrorNotifier } from './list-errors.tsx';
import { LocalisedComponents } from './localised-components.tsx';
import { AppMenu } from './menu.tsx';
import { QuickActionOverlay } from './quick-action-overlay.tsx';
import { RouteGuard } from './route-guard.tsx';
import { SessionKeeper } from './session-keeper.tsx';
import { environment } from './environment.ts';
import { appEntered } from '../custom/account/login-page.tsx';

/**
 * On a phone the title keeps the width the bar can spare, on two lines if it needs them, and the
 * language switch shrinks to its icon: the title is never drawn under it (issue 24).
 */
const narrowTitle = {
  minWidth: 0,
  '@media (max-width: 599.95px)': {
    fontSize: '1rem',
    lineHeight: 1.25,
    whiteSpace: 'normal',
    display: '-webkit-box',
    WebkitLineClamp: 2,
    WebkitBoxOrient: 'vertical',
    overflowWrap: 'anywhere',
  },
};
const compactLanguageSwitch = {
  flexShrink: 0,
  '@media (max-width: 599.95px)': {
    '& .MuiButton-root': { fontSize: 0, minWidth: 0, px: 1 },
    '& .MuiButton-startIcon': { m: 0 },
    '& .MuiButton-endIcon': { display: 'none' },
  },
};

function TopBar() {
  return (
    <AppBar
      toolbar={
        <Box sx={{ ...compactLanguageSwitch, display: 'flex', alignItems: 'center' }}>
          <GlobalSearch />
          <QuickActionOverlay />
          <LocalesMenuButton />
        </Box>
      }
    >
      <TitlePortal sx={narrowTitle} />
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
 * Main layout: feature sidebar, top bar with the quick-action overlay's buttons; MUI's own texts in
 * the app's language.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  useEffect(appEntered, []);
  return (
    <LocalisedComponents>
      <Layout menu={AppMenu} appBar={TopBar} sx={fitWindow}>
        <RouteGuard>{children}</RouteGuard>
        <ListErrorNotifier />
        <SessionKeeper inactiveSignOutSeconds={environment.inactiveSignOutSeconds} />
      </Layout>
    </LocalisedComponents>
  );
}
