import { lazy, Suspense, useEffect, useState } from 'react';
import { Box, Button, IconButton, Tooltip, useMediaQuery, useTheme } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useGetIdentity, useTranslate } from 'react-admin';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { useProfile } from '../schema/ui/profile.ts';
import { canOpenPath } from '../authProvider/route-access.ts';
import type { SearchKind } from '../contract/search.ts';

/** The dialog (the search itself, its results and recent searches) loads on first open. */
const SearchDialog = lazy(() => import('./search-dialog.tsx').then((module) => ({ default: module.SearchDialog })));

/**
 * The app bar's search (issue 31.1): one box, also opened with Ctrl+K / Cmd+K from any page, looking a
 * query up in every kind of record the user may list (`GET webtool/search`). An accessible combobox in a
 * dialog: the input owns a listbox of results grouped by kind; arrows move, Enter opens, Esc closes. Empty,
 * it offers the user's recent searches and recently opened records (kept in this browser, per user).
 */

/** The list page of each kind: a user who may open none of them has no search box. */
const KIND_PATHS: Record<SearchKind, string[]> = {
  pieces: ['/shipments'],
  end_users: ['/end-users'],
  service_points: ['/service-points'],
  hardware_units: ['/hardware'],
  pinpads: ['/pinpad'],
  tickets: ['/tickets'],
  couriers: ['/couriers'],
  carriers: ['/carriers'],
  partners: [
    '/location-owners',
    '/maintenance-providers',
    '/support-providers',
    '/hardware-owners',
    '/hotline-providers',
  ],
  webtool_users: ['/webtool-users'],
};

/** Whether the user may list any kind the search looks in. */
export function searchableFor(profile: AccessProfile | undefined): boolean {
  if (!profile) return false;
  return Object.values(KIND_PATHS).some((paths) => paths.some((path) => canOpenPath(profile, path)));
}

/** The app bar's search button (an icon on a phone), and Ctrl+K / Cmd+K from any page. */
export function GlobalSearch() {
  const translate = useTranslate();
  const profile = useProfile();
  const { identity } = useGetIdentity();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  const allowed = searchableFor(profile);
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

  useEffect(() => {
    if (!allowed) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [allowed]);

  if (!allowed) return null;
  // "Find anything", not "Search": the lists' own search boxes keep the name "Search" to themselves.
  const label = translate('search.open');
  const shortcut = mac ? '⌘K' : 'Ctrl+K';
  return (
    <>
      {phone ? (
        <IconButton
          color="inherit"
          aria-label={label}
          aria-keyshortcuts="Control+K Meta+K"
          onClick={() => setOpen(true)}
        >
          <SearchIcon />
        </IconButton>
      ) : (
        <Tooltip title={translate('search.shortcut', { shortcut })}>
          <Button
            color="inherit"
            variant="outlined"
            size="small"
            startIcon={<SearchIcon />}
            aria-keyshortcuts="Control+K Meta+K"
            onClick={() => setOpen(true)}
            sx={{
              mx: 1,
              textTransform: 'none',
              borderColor: 'rgba(255,255,255,0.5)',
              minWidth: 180,
              justifyContent: 'flex-start',
            }}
          >
            <Box component="span" sx={{ flexGrow: 1, textAlign: 'left' }}>
              {label}
            </Box>
            <Box component="kbd" aria-hidden sx={{ ml: 2, fontFamily: 'inherit', fontSize: '0.75rem', opacity: 0.8 }}>
              {shortcut}
            </Box>
          </Button>
        </Tooltip>
      )}
      {open && (
        <Suspense fallback={null}>
          <SearchDialog open={open} onClose={() => setOpen(false)} user={String(identity?.id ?? '')} />
        </Suspense>
      )}
    </>
  );
}
