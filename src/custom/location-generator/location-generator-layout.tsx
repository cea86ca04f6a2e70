import { AppBar, Box, Button, Toolbar } from '@mui/material';
import type { ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useTranslate } from 'react-admin';

/**
 * The location generator's own layout (spec 01 §2.1): a header with two links; the report setup and
 * locations pages are full width without margins. The app gives it its pages (`children`, routes).
 */
export function LocationGeneratorLayout({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const fullWidth = /\/location-generator\/(create-report|locations)/i.test(pathname);
  return (
    <Box>
      <AppBar position="static" color="default">
        <Toolbar sx={{ gap: 1 }}>
          <Button component={NavLink} to="/location-generator" end>
            {translate('location_generator.reports')}
          </Button>
          <Button component={NavLink} to="/location-generator/create-report">
            {translate('location_generator.create_report')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button component={NavLink} to="/">
            {translate('pages.go_home')}
          </Button>
        </Toolbar>
      </AppBar>
      <Box component="main" sx={fullWidth ? { p: 0 } : { p: 3 }} data-full-width={fullWidth}>
        {children}
      </Box>
    </Box>
  );
}
